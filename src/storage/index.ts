export {
  type Db,
  openDatabase,
} from './db.js';
export { readServerState, recordServerState } from './server-state.js';
