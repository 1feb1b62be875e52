export { classifyAddress, isIpLiteral } from './address-policy.js';
export {
  createGuardedAgent,
  guardedLookup,
  RefusedAddressError,
  refusedHostReason,
} from './guarded-agent.js';
