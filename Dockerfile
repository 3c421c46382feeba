# Research Radar: one image for the server (API + web app), the worker and the operator CLI.
#   docker compose up            (docker-compose.yml: PostgreSQL + pgvector, Redis, migrate, server, worker)
#   docker run -p 3000:3000 -v radar-data:/data <image>   (embedded: PGlite and the job queue in /data)
# Stages: build (all dependencies, the web app, the processes bundled to plain JavaScript), deps
# (production dependencies only, in a flat node_modules), runtime (what the processes read, as a
# non-root user). scripts/check-deploy.mjs lays the runtime stage out from these instructions outside a
# container and starts it; keep the COPY lines in the forms it reads (COPY [--from=stage] src... dest).
ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH CI=true
RUN npm install -g pnpm@12.21.0
WORKDIR /app

# The workspace manifests and the lockfile: what both installs below need, copied once.
FROM base AS manifests
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json tsconfig.base.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/db/package.json packages/db/
COPY packages/ai/package.json packages/ai/
COPY packages/ingest/package.json packages/ingest/
COPY packages/jobs/package.json packages/jobs/
COPY packages/recommend/package.json packages/recommend/
COPY packages/mail/package.json packages/mail/
COPY packages/metrics/package.json packages/metrics/
COPY packages/cli/package.json packages/cli/
COPY server/package.json server/
COPY worker/package.json worker/
COPY web/package.json web/
COPY e2e/package.json e2e/

FROM manifests AS build
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build && pnpm build:dist

FROM manifests AS deps
# Our packages are bundled into dist/; their npm dependencies are installed flat so that dist/ finds them.
RUN pnpm install --prod --frozen-lockfile --config.node-linker=hoisted --filter '@radar/server...' --filter '@radar/worker...' --filter '@radar/cli...'

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/server/package.json ./server/
COPY --from=build /app/server/src/security/common-passwords.txt ./server/src/security/
COPY --from=build /app/packages/db/migrations ./packages/db/migrations
COPY --from=build /app/prompts ./prompts
COPY --from=build /app/config ./config
COPY --from=build /app/scripts/radar ./bin/radar
ENV PATH=/app/bin:$PATH
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Without DATABASE_URL the server runs embedded (PGlite in /data) with the worker inside it.
CMD ["node", "--enable-source-maps", "dist/server.js"]
