// Development-only entry of an e-invoice pool worker run from the TypeScript sources (see
// shared/worker-entry.ts): registers tsx inside this thread, then serves worker.ts's handler.
// Production runs the bundled dist/server/einvoice-worker.js directly.
import { register } from 'tsx/esm/api';

register();
const { default: handle } = await import('./worker.ts');
export default handle;
