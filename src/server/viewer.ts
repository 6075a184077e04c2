// The lineage viewer: a static page at GET /lineage/:threadId, and the thread index at GET /, whose
// browser modules read only the public GraphQL API at /graphql. Their pages (index.html, threads.html,
// viewer.css) and TypeScript live in src/viewer/; `npm run build` compiles the modules into
// dist/viewer/. Both are found from the project root, so the service run from src/ or from dist/
// serves the same files.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { projectRoot } from '../graph/projectRoot.js';

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
  const page = join(projectRoot(), 'src', 'viewer');
  const modules = join(projectRoot(), 'dist', 'viewer');
  const router = Router();
  /** Serves one of the pages, whose entry module is `script`. */
  const serve = (file: string, script: string) => (_request: Request, response: Response, next: NextFunction) => {
    secure(response);
    // A page whose script is missing would stay blank; say what to run instead.
    if (!existsSync(join(modules, script))) {
      response
        .status(503)
        .type('text/plain')
        .send('The lineage viewer is not built: `npm run build` compiles it into dist/viewer/.');
      return;
    }
    response.sendFile(file, { root: page }, (error) => error && next(error));
  };
  // The thread index, each row linking to its thread's viewer.
  router.get(['/', '/lineage', '/lineage/'], serve('threads.html', 'threads.js'));
  router.get('/lineage/:threadId', serve('index.html', 'viewer.js'));
  router.use(
    '/lineage/assets',
    (_request, response, next) => {
      secure(response);
      next();
    },
    express.static(modules, { index: false, dotfiles: 'ignore', cacheControl: false }),
    (request: Request, response: Response, next) => {
      if (request.path !== '/viewer.css') return next();
      response.sendFile('viewer.css', { root: page, cacheControl: false }, (error) => error && next(error));
    },
    (_request: Request, response: Response) => {
      response.status(404).type('text/plain').send('Not found');
    },
  );
  return router;
}
