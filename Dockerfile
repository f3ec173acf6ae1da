# syntax=docker/dockerfile:1
# Build stage: all dependencies, then the Remix build.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci applies patches/ to node_modules (postinstall, decision 026).
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only, patched as in development (patches/: the react-dom fix, decision 026).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund

# Final image: production dependencies, the build, migrations and the catalog, and the sources the
# operator commands run with tsx (a production dependency): `npm run db:migrate`, `staff:create`,
# `staff:revoke` and `catalog:import` work in it (`docker compose run --rm store npm run ...`,
# docs/deploy.md). Runs as a non-root user.
FROM node:24-bookworm-slim
# Two malloc arenas instead of one per thread: libuv's and V8's threads otherwise each keep their own; and
# freed memory at the top of the heap returned past 128 KB, not past whatever size was last freed (ADR 013).
ENV NODE_ENV=production PORT=3000 PGLITE_DIR=/app/data/pglite MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY package.json tsconfig.json ./
COPY drizzle ./drizzle
COPY catalog ./catalog
COPY app ./app
COPY scripts ./scripts
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The store's own server (build/server.js) handles SIGTERM: it finishes requests in flight and closes the
# database pool. Started directly, not through npm, so the signal reaches it. The heap flags keep V8 from
# growing the process past what it uses (about 195 MB after 10,000 requests instead of 500; ADR 013).
STOPSIGNAL SIGTERM
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=8", "build/server.js"]
