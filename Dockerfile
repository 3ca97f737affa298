# Lingonovel in one container (docs/deploy.md, "In a container"). Build and run:
#   docker build -t lingonovel .
#   docker run -d -p 3000:3000 -v lingonovel-data:/data lingonovel
# The first boot prints a setup code for /setup (docker logs), or set INIT_ADMIN_EMAIL and
# INIT_ADMIN_PASSWORD. deploy/test-container.sh builds this file with podman, on a local base image.

# node:22-bookworm-slim, or a stand-in with Node 22 on Debian 12 (deploy/test-container.sh makes one).
ARG BASE_IMAGE=node:22-bookworm-slim

# --- Dependencies: every package, installed and compiled once per lockfile ---
FROM ${BASE_IMAGE} AS deps
# Compilers for the native modules that have no prebuilt binary here (better-sqlite3).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# npm's cache outlives the build (the packages download once); this layer is reused while the lockfile stays.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# --- Production dependencies: the same tree without the build tools; it too depends on the lockfile
# alone, so a change of the sources reuses it (and the run stage's copy of it) as it is ---
FROM deps AS production-deps
# Compiled here, better-sqlite3 keeps its sources and objects (25 MB): only the module itself is needed.
RUN npm prune --omit=dev --no-audit --no-fund \
  && cd node_modules/better-sqlite3 \
  && mv build/Release/better_sqlite3.node . \
  && rm -rf build deps src \
  && mkdir -p build/Release \
  && mv better_sqlite3.node build/Release/

# --- Build: the server and the site, where a change of the sources starts ---
FROM deps AS build
COPY tsconfig.json astro.config.mjs ./
COPY server ./server
COPY site ./site
COPY scripts ./scripts
RUN npm run build

# --- Run: Node, ffmpeg (imports, exports, waveforms), eSpeak NG (the aligner's voice) and pg_dump
# (backups of a PostgreSQL installation) ---
FROM ${BASE_IMAGE}
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg espeak-ng postgresql-client \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system --gid 10001 lingonovel \
  && useradd --system --uid 10001 --gid lingonovel --home-dir /data --shell /usr/sbin/nologin lingonovel \
  && mkdir -p /data \
  && chown lingonovel:lingonovel /data
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/build-state.mjs /app/scripts/ensure-build.mjs ./scripts/
# The demo catalogue, for `--demo` (a trial: docker run … lingonovel node dist/app/server/main.js --demo).
COPY --from=build /app/server/seed/demo ./server/seed/demo
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  STORAGE_DIR=/data
USER lingonovel
VOLUME /data
EXPOSE 3000
# Ready when the database and the media store both take work (docs/configuration.md).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A stop (SIGTERM) finishes the requests under way; tools run with `docker exec`, e.g.
#   docker exec -it <container> node dist/app/server/cli/create-admin.js --email you@example.org --name You
CMD ["node", "dist/app/server/main.js"]
