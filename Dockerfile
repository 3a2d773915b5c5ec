# Discovery Kit companion server. Build: docker build -t discovery-kit .
# Run:   docker run -p 8787:8787 -v discovery-data:/data -v ./shop.json:/config/shop.json:ro discovery-kit
# (production mode: your configuration, no demo data; see docs/operations.md, "Container").

ARG NODE_IMAGE=node:20.20-bookworm-slim

# --- build: every dependency, then the compiled server (dist/server) and the browser bundles (dist/sdk)
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests first, so the dependency layer is reused until they change.
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
COPY packages/tracker/package.json packages/tracker/
COPY packages/elements/package.json packages/elements/
COPY apps/companion/package.json apps/companion/
COPY apps/console/package.json apps/console/
COPY apps/storefront/package.json apps/storefront/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json vite.config.ts ./
COPY scripts scripts
COPY packages packages
COPY apps apps
RUN npm run build

# --- runtime: production dependencies, the compiled output and the data files it reads; no TypeScript
FROM ${NODE_IMAGE} AS runtime
# MALLOC_ARENA_MAX=2: glibc's per-thread malloc arenas hold freed memory apart; two arenas cut the RSS
# after a 400,000-activity flood by 11 % at no cost in throughput (docs/operations.md, "Memory").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data \
    DEMO=off \
    CONFIG=/config/shop.json
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
COPY packages/tracker/package.json packages/tracker/
COPY packages/elements/package.json packages/elements/
COPY apps/companion/package.json apps/companion/
COPY apps/console/package.json apps/console/
COPY apps/storefront/package.json apps/storefront/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
# Files the compiled code reads next to its sources: configurations, demo data and keys, shop assets.
COPY apps/companion/config apps/companion/config
COPY apps/companion/demo apps/companion/demo
COPY apps/storefront/public apps/storefront/public
COPY scripts/run-tool.mjs scripts/run-tool.mjs
RUN mkdir -p /data /config && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
# /ready, not /health: a container is healthy once its indexes and aggregates are loaded.
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The server drains requests and flushes every write on SIGTERM (docker stop), then exits 0.
STOPSIGNAL SIGTERM
# A 64 MB young generation (V8's default is 16): four times fewer scavenges, so the slowest 1 % of
# recommendation calls no longer wait on one (docs/operations.md, "Memory under a flood").
CMD ["node", "--max-semi-space-size=64", "dist/server/main.js"]
