export { bodyHash } from './canonical.js';
export {
  type Answer,
  type Claim,
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyStore,
  type KeyScope,
  parseIdempotencyKey,
} from './store.js';
