// The lineage viewer: a static page (HTML, plain JS, SVG) at GET /lineage/:threadId that reads only
// the public GraphQL API at /graphql. Its files live in src/server/viewer/ and are served from there
// (resolved from the project root), so the built service in dist/ serves the same files.
import { join } from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { projectRoot } from '../graph/projectRoot.js';

/** Where index.html, viewer.js and viewer.css live, for the service run from src/ or from dist/. */
function viewerDirectory(): string {
  return join(projectRoot(), 'src', 'server', 'viewer');
}

function secure(response: Response): void {
  // Same origin only; no inline script or style; the ?token= query never leaves in a Referer.
  response.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-cache');
}

export function viewerRouter(): Router {
  const directory = viewerDirectory();
  const router = Router();
  router.get('/lineage/:threadId', (_request, response, next) => {
    secure(response);
    response.sendFile('index.html', { root: directory }, (error) => error && next(error));
  });
  router.use(
    '/lineage/assets',
    (_request, response, next) => {
      secure(response);
      next();
    },
    express.static(directory, { index: false, dotfiles: 'ignore', cacheControl: false }),
    (_request: Request, response: Response) => {
      response.status(404).type('text/plain').send('Not found');
    },
  );
  return router;
}
