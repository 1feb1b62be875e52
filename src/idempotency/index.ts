export {
  type Answer,
  IdempotencyStore,
  parseIdempotencyKey,
} from './store.js';
export { type Remember, type Replay, withIdempotency } from './with-idempotency.js';
