// Types of scripts/sqlite-prebuild.mjs for the TypeScript tests that use it (ops/npm-install, unit/sqlite-prebuild).
export const SHIPPED_PREBUILDS: string;
export function lockedVersion(repository?: string): string;
export function prebuildName(version: string): string;
export function matchingShippedPrebuilds(): string | undefined;
export function packPrebuild(into: string, repository?: string): string;
