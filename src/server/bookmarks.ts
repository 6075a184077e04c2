// Causal reads across instances. Every mutation's answer carries the bookmarks of the state its
// transactions wrote (`extensions.bookmark`, one opaque string); a request that sends it back in the
// `threadline-bookmark` header reads at least that state, whichever instance serves it and whichever
// cluster member Neo4j routes its reads to (docs/instances.md).
import type { ApolloServerPlugin } from '@apollo/server';
import { OperationTypeNode } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import type { RequestContext } from '../api/context.js';

const BOOKMARK_HEADER = 'threadline-bookmark';
// Neo4j's bookmarks are base64 with a prefix: a comma never occurs in one.
const SEPARATOR = ',';
// Far above what one database's bookmark takes (about 100 characters), far below the header limit.
const MAX_HEADER_CHARS = 4096;

/** The bookmarks a request sent back; empty without the header. */
export function bookmarksOf(request: Request): string[] {
  const header = request.headers[BOOKMARK_HEADER];
  const value = Array.isArray(header) ? header.join(SEPARATOR) : (header ?? '');
  return value
    .split(SEPARATOR)
    .map((bookmark) => bookmark.trim())
    .filter((bookmark) => bookmark.length > 0);
}

/** Refuses a bookmark header too long to be one this service issued, before any work. */
export function bookmarkHeaderLimit(request: Request, response: Response, next: NextFunction): void {
  const header = request.headers[BOOKMARK_HEADER];
  const length = Array.isArray(header) ? header.join(SEPARATOR).length : (header?.length ?? 0);
  if (length <= MAX_HEADER_CHARS) return next();
  response.status(400).json({
    errors: [
      {
        message: `The ${BOOKMARK_HEADER} header holds ${length} characters; a bookmark this service issued holds far fewer (at most ${MAX_HEADER_CHARS}).`,
        extensions: { code: 'BAD_USER_INPUT', field: BOOKMARK_HEADER },
      },
    ],
  });
}

/** Adds `extensions.bookmark` to every mutation's answer whose transactions left bookmarks. */
export function bookmarkAnswers(): ApolloServerPlugin<RequestContext> {
  return {
    // eslint-disable-next-line @typescript-eslint/require-await -- Apollo's hook is async
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, operation, response }) {
          if (operation?.operation !== OperationTypeNode.MUTATION || response.body.kind !== 'single') return;
          const bookmarks = await contextValue.operations.graph.bookmarks();
          if (bookmarks.length === 0) return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, bookmark: bookmarks.join(SEPARATOR) };
        },
      };
    },
  };
}
