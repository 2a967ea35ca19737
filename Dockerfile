# One image for every Weft process; docker-compose.yml picks the entry point per service.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm install --no-audit --no-fund && npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
CMD ["node", "gateway/dist/main.js"]
