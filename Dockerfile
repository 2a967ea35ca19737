# One image for every Weft process; docker-compose.yml picks the entry point per service.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm install --no-audit --no-fund && npm run build

FROM node:20-bookworm-slim
# Debian's Chromium for the Stagehand agent's browser (the integrations service, WEFT_BROWSER_PATH;
# docs/tools.md). `--build-arg WITH_CHROMIUM=false` leaves it out: the agent then reads pages as text.
ARG WITH_CHROMIUM=true
RUN if [ "$WITH_CHROMIUM" = "true" ]; then \
      apt-get update && apt-get install -y --no-install-recommends chromium fonts-liberation && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
CMD ["node", "gateway/dist/main.js"]
