// Types of scripts/production-lock.mjs for the TypeScript test that uses it (test/integration/ops/npm-install.test.ts).
export interface LockEntry {
  name?: string;
  version: string;
  integrity?: string;
  resolved?: string;
  link?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  engines?: Record<string, string>;
  license?: string;
  hasInstallScript?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
export interface Lock {
  name: string;
  version: string;
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}
export function productionShrinkwrap(lock: Lock): Lock;
