#!/usr/bin/env bash
# Proves the Dockerfile without a container registry (none is reachable here); not part of CI (minutes of CPU).
#  1. debootstrap a Debian bookworm root and add the host's Node (binary, headers, npm) at the places the
#     official node images have them (/usr/local/bin/node, /usr/local/lib/node_modules/npm);
#  2. import it into buildah under the Dockerfile's NODE_IMAGE name (its Node is the host's, printed below);
#  3. buildah bud the Dockerfile unchanged (--storage-driver vfs --isolation chroot, --pull-never);
#  4. run `quire --version`, start `quire serve` and render a PDF inside the image with `buildah run`, reading
#     the PDF's text back with the image's own pdftotext; when running is impossible here, mount the image's
#     root filesystem and run its binaries in a chroot instead.
# Everything (buildah storage included) stays under WORKDIR, removed at the end unless KEEP_WORK=1.
# Usage: sudo scripts/verify-image.sh [WORKDIR]   (needs buildah and debootstrap: apt-get install buildah debootstrap)
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian); EXTRA_CA_FILE, a PEM bundle the build's npm
# must trust (a TLS-intercepting egress proxy; default: the host's /usr/local/share/ca-certificates/*.crt).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mkdir -p "${1:-/var/tmp/quire-verify-image}" && cd "${1:-/var/tmp/quire-verify-image}" && pwd)"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
BUILDAH=(buildah --root "$WORK/storage" --runroot "$WORK/runroot" --storage-driver vfs)
BASE_NAME="docker.io/library/$(sed -n 's/^ARG NODE_IMAGE=//p' "$ROOT/Dockerfile")"
STARTED=$SECONDS
log() { printf '[verify-image +%ss] %s\n' "$((SECONDS - STARTED))" "$*"; }

# The host's extra CAs go into the stand-in base only (NODE_EXTRA_CA_CERTS), never into the Dockerfile.
extra_ca_bundle() {
  if [[ -n "${EXTRA_CA_FILE:-}" ]]; then cat "$EXTRA_CA_FILE"; return; fi
  shopt -s nullglob
  local files=(/usr/local/share/ca-certificates/*.crt)
  ((${#files[@]})) && cat "${files[@]}"
  return 0
}

assemble_base() {
  log "assembling the base with debootstrap ($MIRROR)"
  local rootfs="$WORK/rootfs"
  rm -rf "$rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
    || { tail -20 "$WORK/debootstrap.log"; exit 1; }
  # Like the official image: updates and security suites (bookworm's Chromium is updated through security).
  cat >"$rootfs/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
  rm -rf "$rootfs/var/lib/apt/lists/"* "$rootfs/var/cache/apt/archives/"*.deb
  local node_bin node_prefix
  node_bin="$(readlink -f "$(command -v node)")"
  node_prefix="$(dirname "$(dirname "$node_bin")")"
  install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
  cp -a "$node_prefix/lib/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # Headers for node-gyp (better-sqlite3 compiles from source: its prebuilt binaries come from GitHub).
  cp -a "$node_prefix/include/node" "$rootfs/usr/local/include/node"
  local env=(--env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env NODE_VERSION="$(node --version | tr -d v)"
    # nodejs.org (where node-gyp fetches headers) is unreachable here: use the copied ones.
    --env npm_config_nodedir=/usr/local)
  local ca
  ca="$(extra_ca_bundle)"
  if [[ -n "$ca" ]]; then
    install -d "$rootfs/usr/local/share/quire-verify"
    printf '%s\n' "$ca" >"$rootfs/usr/local/share/quire-verify/extra-ca.pem"
    env+=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/quire-verify/extra-ca.pem)
    log "the base trusts the host's extra CA bundle (NODE_EXTRA_CA_CERTS) for npm behind the egress proxy"
  fi
  tar -C "$rootfs" -cf "$WORK/base.tar" .
  local ctr
  ctr=$("${BUILDAH[@]}" from scratch)
  "${BUILDAH[@]}" add "$ctr" "$WORK/base.tar" / >/dev/null
  "${BUILDAH[@]}" config "${env[@]}" --cmd node "$ctr"
  "${BUILDAH[@]}" commit --quiet "$ctr" "$BASE_NAME" >/dev/null
  "${BUILDAH[@]}" rm "$ctr" >/dev/null
  rm -rf "$rootfs" "$WORK/base.tar"
  log "base image: $("${BUILDAH[@]}" images --format '{{.Name}}:{{.Tag}} {{.Size}}' "$BASE_NAME")"
}

# The image's checks, run inside it: version, then serve + render + read the PDF back.
IN_IMAGE_CHECK='
set -e
export QUIRE_DATA_DIR=/tmp/quire QUIRE_PORT=3999 QUIRE_HOST=127.0.0.1
echo "user: $(id -un) ($(id -u)); node $(node --version); $(/usr/lib/chromium/chromium --version 2>/dev/null)"
node /app/bin/quire.mjs serve > /tmp/serve.log 2>&1 &
SERVER=$!
for i in $(seq 1 90); do grep -q "Quire is serving" /tmp/serve.log && break; sleep 1; done
grep -E "Quire is serving|Created the default team" /tmp/serve.log || { cat /tmp/serve.log; exit 1; }
# Start-up announcements are JSON records on stderr (no terminal here): the key is their live_key field.
KEY=$(sed -n "s/.*\"live_key\":\"\([^\"]*\)\".*/\1/p" /tmp/serve.log)
node -e "
  const base = \"http://127.0.0.1:3999\";
  const t0 = Date.now();
  fetch(base + \"/v1/pdf\", { method: \"POST\",
    headers: { authorization: \"Bearer $KEY\", \"content-type\": \"application/json\" },
    body: JSON.stringify({ html: \"<h1>Hello from the Quire image</h1>\" }) })
  .then(async (r) => {
    const b = Buffer.from(await r.arrayBuffer());
    console.log(\"POST /v1/pdf:\", r.status, r.headers.get(\"content-type\"), b.length, \"bytes in\", Date.now() - t0, \"ms\");
    require(\"node:fs\").writeFileSync(\"/tmp/out.pdf\", b);
    const v = await (await fetch(base + \"/version\")).text();
    console.log(\"GET /version:\", v);
    const ready = await fetch(base + \"/readyz\");
    console.log(\"GET /readyz:\", ready.status);
    process.exit(r.ok ? 0 : 1);
  }, (e) => { console.error(e); process.exit(1); });"
echo "pdftotext: $(pdftotext /tmp/out.pdf - | tr -s "[:space:]" " ")"
kill -TERM $SERVER; wait $SERVER || true
tail -n 3 /tmp/serve.log
'

cleanup() {
  [[ -n "${ctr:-}" ]] && "${BUILDAH[@]}" rm "$ctr" >/dev/null 2>&1 || true
  if [[ "${KEEP_WORK:-0}" != 1 ]]; then
    "${BUILDAH[@]}" rmi --all --force >/dev/null 2>&1 || true
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT

log "buildah $(buildah --version | awk '{print $3}'), work directory $WORK"
if ! "${BUILDAH[@]}" images --format '{{.Name}}:{{.Tag}}' | grep -qx "$BASE_NAME"; then
  assemble_base
fi

log "building the image (buildah bud --isolation chroot --pull-never)"
"${BUILDAH[@]}" bud --isolation chroot --pull-never --format docker --layers=false \
  --build-arg COMMIT="$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || true)" -t quire:verify "$ROOT"
log "image: $("${BUILDAH[@]}" images --format '{{.Name}}:{{.Tag}} {{.Size}}' localhost/quire:verify)"
"${BUILDAH[@]}" inspect --format 'entrypoint {{.Docker.Config.Entrypoint}} cmd {{.Docker.Config.Cmd}} user {{.Docker.Config.User}} healthcheck {{.Docker.Config.Healthcheck.Test}}{{println}}' quire:verify

log "storage used under $WORK: $(du -sh "$WORK" | cut -f1)"
log "running it"
ctr=$("${BUILDAH[@]}" from quire:verify)
if "${BUILDAH[@]}" run --isolation chroot "$ctr" -- node /app/bin/quire.mjs --version; then
  "${BUILDAH[@]}" run --isolation chroot "$ctr" -- sh -c "$IN_IMAGE_CHECK"
else
  log "buildah run is not possible here; checking the image root filesystem in a chroot instead"
  mnt=$("${BUILDAH[@]}" mount "$ctr")
  chroot "$mnt" /usr/local/bin/node /app/bin/quire.mjs --version
  chroot "$mnt" /usr/lib/chromium/chromium --version
  chroot "$mnt" /usr/bin/pdfinfo -v
  "${BUILDAH[@]}" umount "$ctr" >/dev/null
fi
log "done"
