# syntax=docker/dockerfile:1
# One image for api, worker and notifier; docker-compose.yml picks the process with `command`.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install` honours the lock file (see scripts/setup.sh for why not `npm ci`).
RUN npm install --no-audit --no-fund --loglevel=error
COPY tsconfig.json tsconfig.build.json ./
COPY apps apps
COPY libs libs
# The server (tsc) and the browser app (Vite, into dist/apps/web/dist, served at `/`).
RUN npm run build

FROM node:24-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --loglevel=error

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# Chromium prints the client reports as PDF (started once by the API, reused); fonts for their text;
# iputils-ping sends ICMP checks' echo requests (workers, and a check run now from the API).
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-dejavu-core iputils-ping \
  && rm -rf /var/lib/apt/lists/*
ENV CHROMIUM_PATH=/usr/bin/chromium
WORKDIR /app
COPY --from=runtime-deps /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
USER node
EXPOSE 8080
CMD ["node", "dist/apps/api/main.js"]
