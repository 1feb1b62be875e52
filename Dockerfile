# Quire container image. Build:  docker build --build-arg COMMIT=$(git rev-parse HEAD) -t quire .
# Run:    docker run -p 3000:3000 -v quire-data:/data quire            (API + in-process workers)
#         docker run -v quire-data:/data quire worker                   (background workers only)
# Proven here without a registry by scripts/verify-image.sh (README: Container; recorded run: deploy/verify-image.log).

# Node 22, an LTS line maintained until April 2027 (Node 20 reached its end of life in April 2026). Not 24:
# better-sqlite3 12 aborts on Node 24.19+ when the garbage collector finalizes a statement (an assertion in
# RemoveEnvironmentCleanupHook; seen with scripts/test-on-image-node.sh on 24.21.0), and better-sqlite3 13 needs
# Node 22+, which would drop Node 20. Both stages use it, so better-sqlite3 is compiled for the Node that runs it.
# scripts/test-on-image-node.sh runs the bundle's tests on this line's newest release, without a container engine.
ARG NODE_IMAGE=node:22-bookworm-slim

# --- build: type-check, bundle the server and the dashboard, build better-sqlite3 from source, drop dev dependencies ---
FROM ${NODE_IMAGE} AS build
# Build-time only (ARG, not ENV): apt's debconf asks nothing and prints no terminal warnings.
ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The lock file names the typed client as a workspace: npm ci needs its manifest.
COPY clients/typescript/package.json ./clients/typescript/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle.mjs scripts/compile-einvoice-rules.mjs ./scripts/
# The official e-invoice artefacts (XSDs, schematron XSLTs, code lists) POST /v1/e-invoices/validate runs.
COPY tools/einvoice-validate/artefacts ./tools/einvoice-validate/artefacts
# The same stylesheets compiled (SEF, gzipped): unpacked instead of compiled when their stamps match.
COPY tools/einvoice-validate/sef ./tools/einvoice-validate/sef
COPY bin ./bin
COPY src ./src
# The dashboard (Vite) imports the typed client's generated API types.
COPY web ./web
COPY clients/typescript/src ./clients/typescript/src
RUN npm run build && node scripts/compile-einvoice-rules.mjs && npm prune --omit=dev --no-audit --no-fund
ARG COMMIT=""
# GET /version reports it (images carry no .git).
RUN printf '%s\n' "$COMMIT" > COMMIT

# --- runtime: exactly the Debian packages the development bootstrap installs (deploy/debian-packages.txt:
# Chromium, fonts with CJK and emoji, poppler-utils, qpdf), plus tini and CA certificates for the container ---
FROM ${NODE_IMAGE}
ARG DEBIAN_FRONTEND=noninteractive
COPY deploy/debian-packages.txt /tmp/debian-packages.txt
RUN apt-get update \
  && sed -e 's/#.*//' /tmp/debian-packages.txt | xargs apt-get install -y --no-install-recommends tini ca-certificates \
  && rm -rf /var/lib/apt/lists/* /tmp/debian-packages.txt
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home quire \
  && mkdir -p /data && chown quire:quire /data && chmod 0700 /data
WORKDIR /app
COPY --from=build /app/package.json /app/COMMIT ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
# Read at run time from the source tree's place (the PDF/A colour profile).
COPY --from=build /app/src/einvoice/assets ./src/einvoice/assets
# The template gallery's starters (src/templates/starters.ts).
COPY --from=build /app/src/templates/starters ./src/templates/starters
COPY --from=build /app/tools/einvoice-validate/artefacts ./tools/einvoice-validate/artefacts
# The Liquid reference served at /docs/liquid (src/docs/liquid-page.ts).
COPY docs/liquid-filters.md ./docs/liquid-filters.md
ENV NODE_ENV=production \
    QUIRE_DATA_DIR=/data \
    QUIRE_HOST=0.0.0.0 \
    QUIRE_PORT=3000 \
    QUIRE_SKIP_BOOTSTRAP=1
# Non-root: Chromium refuses its sandbox as root, and a renderer that escapes without one reaches only what
# this user owns (/data). The sandbox also needs user namespaces, which Docker's default seccomp profile
# refuses; Quire then logs why at start and runs Chromium without it (README: Container, Security model).
USER quire
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.QUIRE_PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# tini reaps Chromium's helper processes and forwards SIGTERM (graceful drain).
ENTRYPOINT ["tini", "--", "node", "/app/bin/quire.mjs"]
CMD ["serve"]
