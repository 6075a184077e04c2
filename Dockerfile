# The service image, built by docker-compose.yml. It talks to the Neo4j that NEO4J_URI names (compose
# runs one beside it): the local Neo4j of `npm start` (Java, Maven) is not in the image.
#
# Node 20, the oldest release package.json's engines allow and the one CI runs.
ARG NODE_IMAGE=node:20-bookworm-slim

# Build: every dependency, then the TypeScript of src/ compiled into dist/src (the service) and
# dist/viewer (the lineage viewer's browser modules).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Runtime: production dependencies, the compiled service, and the files it reads from disk at run time
# (found from package.json, the project root): the SDL in schema/, the Cypher in cypher/, and the
# lineage viewer's page and style in src/viewer/ (its modules are in dist/viewer).
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY schema ./schema
COPY cypher ./cypher
COPY src/viewer/index.html src/viewer/viewer.css ./src/viewer/
# The image's unprivileged user; the service writes nothing under /app.
USER node
EXPOSE 4000
# Readiness without curl, which slim images lack: Node's own fetch against /readyz, which answers 200
# only once the schema migrations are applied and Neo4j answers (/healthz says only that the process runs).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/server/main.js"]
