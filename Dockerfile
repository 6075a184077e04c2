# The service image for docker-compose.yml; it always talks to a Neo4j given by NEO4J_URI.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev
ENV NODE_ENV=production
EXPOSE 4000
CMD ["node", "dist/src/server/main.js"]
