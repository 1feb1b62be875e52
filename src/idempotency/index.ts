export { bodyHash } from './canonical.js';
export {
  type Answer,
  IdempotencyStore,
  type KeyScope,
  parseIdempotencyKey,
} from './store.js';
