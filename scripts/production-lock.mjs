// The production part of package-lock.json: the packages `dependencies` need, as npm installs them for a user
// of the packed package (quire-pdf). The packed-install test (test/integration/ops/npm-install.test.ts) serves
// exactly these versions from a loopback registry.

/**
 * The lock entry a package at `from` gets for `name`: Node's resolution, the nearest node_modules/name
 * up from `from` (a lock's keys are those install paths).
 */
function resolveIn(packages, from, name) {
  let dir = from;
  for (;;) {
    const key = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[key]) return key;
    if (dir === '') return null;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent === -1 ? '' : dir.slice(0, parent);
  }
}

/** package-lock.json reduced to what `dependencies` (with their optional and peer dependencies) need. */
export function productionShrinkwrap(lock) {
  const { packages } = lock;
  const rootEntry = packages[''];
  const keep = new Set();
  const queue = [['', rootEntry.dependencies ?? {}]];
  while (queue.length > 0) {
    const [from, wanted] = queue.pop();
    for (const name of Object.keys(wanted)) {
      const key = resolveIn(packages, from, name);
      if (key === null || keep.has(key)) continue;
      keep.add(key);
      const entry = packages[key];
      const peers = Object.keys(entry.peerDependencies ?? {}).filter(
        (peer) => !entry.peerDependenciesMeta?.[peer]?.optional,
      );
      queue.push([
        key,
        {
          ...entry.dependencies,
          ...entry.optionalDependencies,
          ...Object.fromEntries(peers.map((p) => [p, '*'])),
        },
      ]);
    }
  }
  const { workspaces: _workspaces, devDependencies: _dev, ...rootKept } = rootEntry;
  const kept = Object.fromEntries(
    Object.entries(packages)
      .filter(([key]) => keep.has(key))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return {
    name: lock.name,
    version: lock.version,
    lockfileVersion: lock.lockfileVersion,
    requires: true,
    packages: { '': rootKept, ...kept },
  };
}
