export {
  type Db,
  openDatabase,
} from './db.js';
