#!/usr/bin/env bash
# Proves the Dockerfile without a container registry (none is reachable here); not part of CI (minutes of CPU).
#  1. debootstrap a Debian bookworm root and add the host's Node 20 binary and npm (bookworm's own nodejs is 18),
#     the same layout as the official node:20-bookworm-slim image (/usr/local/bin/node);
#  2. import it into buildah as node:20-bookworm-slim (the name the Dockerfile expects);
#  3. buildah bud the Dockerfile (--storage-driver vfs --isolation chroot);
#  4. run `quire --version` and render a PDF inside it with `buildah run`; when running is impossible here,
#     mount the image's root filesystem and run its binaries in a chroot instead.
# Usage: sudo scripts/verify-image.sh [WORKDIR]   (needs buildah and debootstrap: apt-get install buildah debootstrap)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:-/var/tmp/quire-verify-image}"
STORAGE=(--storage-driver vfs)
BASE_NAME="docker.io/library/node:20-bookworm-slim"
mkdir -p "$WORK"
log() { printf '[verify-image] %s\n' "$*"; }

if ! buildah "${STORAGE[@]}" images --format '{{.Name}}:{{.Tag}}' | grep -qx "$BASE_NAME"; then
  log "assembling the base with debootstrap"
  rm -rf "$WORK/rootfs"
  debootstrap --variant=minbase bookworm "$WORK/rootfs" http://deb.debian.org/debian
  NODE_BIN="$(command -v node)"
  install -D -m 0755 "$NODE_BIN" "$WORK/rootfs/usr/local/bin/node"
  # npm (the build stage runs npm ci) comes from the host's installation, like the official image's layout.
  NPM_DIR="$(dirname "$(readlink -f "$(command -v npm)")")/.."
  mkdir -p "$WORK/rootfs/usr/local/lib/node_modules"
  cp -a "$(readlink -f "$NPM_DIR")" "$WORK/rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$WORK/rootfs/usr/local/bin/npm"
  tar -C "$WORK/rootfs" -cf "$WORK/base.tar" .
  ctr=$(buildah "${STORAGE[@]}" from scratch)
  buildah "${STORAGE[@]}" add "$ctr" "$WORK/base.tar" /
  buildah "${STORAGE[@]}" config --env PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
  buildah "${STORAGE[@]}" commit "$ctr" "$BASE_NAME"
  buildah "${STORAGE[@]}" rm "$ctr"
fi

log "building the image"
buildah "${STORAGE[@]}" bud --isolation chroot --pull-never \
  --build-arg COMMIT="$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || true)" -t quire:verify "$ROOT"

log "running it"
ctr=$(buildah "${STORAGE[@]}" from quire:verify)
trap 'buildah "${STORAGE[@]}" rm "$ctr" >/dev/null 2>&1 || true' EXIT
if buildah "${STORAGE[@]}" run --isolation chroot "$ctr" -- node /app/bin/quire.mjs --version; then
  buildah "${STORAGE[@]}" run --isolation chroot "$ctr" -- sh -c '
    set -e
    export QUIRE_DATA_DIR=/tmp/quire QUIRE_PORT=3999 QUIRE_HOST=127.0.0.1
    node /app/bin/quire.mjs serve > /tmp/serve.log 2>&1 &
    for i in $(seq 1 60); do grep -q "Live key" /tmp/serve.log && break; sleep 1; done
    KEY=$(sed -n "s/.*Live key: //p" /tmp/serve.log)
    node -e "
      fetch(\"http://127.0.0.1:3999/v1/pdf\", {method:\"POST\", headers:{authorization:\"Bearer $KEY\",\"content-type\":\"application/json\"},
        body: JSON.stringify({html:\"<h1>Hello from the image</h1>\"})})
      .then(async r => { const b = Buffer.from(await r.arrayBuffer()); console.log(\"POST /v1/pdf:\", r.status, b.subarray(0,5).toString(), b.length, \"bytes\"); process.exit(r.ok ? 0 : 1); })"
    fetch_version=$(node -e "fetch(\"http://127.0.0.1:3999/version\").then(r=>r.text()).then(console.log)")
    echo "GET /version: $fetch_version"'
else
  log "buildah run is not possible here; checking the image root filesystem in a chroot instead"
  mnt=$(buildah "${STORAGE[@]}" mount "$ctr")
  chroot "$mnt" node /app/bin/quire.mjs --version
  chroot "$mnt" /usr/lib/chromium/chromium --version
  chroot "$mnt" pdfinfo -v
fi
log "done"
