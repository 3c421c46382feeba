# Research Radar: one image for the server (API + web app) and the worker.
FROM node:20-bookworm-slim

ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH CI=true
RUN npm install -g pnpm@12.21.0

WORKDIR /app
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json tsconfig.base.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/db/package.json packages/db/
COPY packages/ai/package.json packages/ai/
COPY packages/ingest/package.json packages/ingest/
COPY packages/jobs/package.json packages/jobs/
COPY packages/mail/package.json packages/mail/
COPY packages/cli/package.json packages/cli/
COPY server/package.json server/
COPY worker/package.json worker/
COPY web/package.json web/
COPY e2e/package.json e2e/
RUN pnpm install --frozen-lockfile

COPY . .
RUN pnpm build

ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
VOLUME /data
EXPOSE 3000
# Without DATABASE_URL the image runs embedded (PGlite in /data); compose sets PostgreSQL and Redis.
CMD ["node", "--import", "tsx", "server/src/main.ts"]
