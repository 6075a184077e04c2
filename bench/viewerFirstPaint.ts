// The lineage viewer's first paint, replayed with the viewer's own typed documents and window sizes
// (src/viewer/queries.ts), so that the bench measures what the viewer sends rather than a copy that
// drifts: THREAD_QUERY for the newest window of runs, then LINKS_QUERY for the links
// of that window's ordinals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/graph/projectRoot.js';
import { firstPaintLinks } from '../src/viewer/layout.js';
import { LINKS_QUERY, THREAD_QUERY, WINDOW_RUNS, linkRanges } from '../src/viewer/queries.js';
import type { ThreadWindowQuery } from '../src/viewer/generated/graphql.js';
import type { Api } from './api.js';

export interface ViewerFirstPaint {
  /** The runs selection of THREAD_QUERY, e.g. `runs(last: $last)` with `last` 200, for the report. */
  runsSelection: string;
  /** Whether Thread.runs takes `last` in schema/threads.graphql, which the window needs. */
  schemaHasRunsWindow: boolean;
  paint(api: Api, threadId: string): Promise<void>;
}

/** The ordinals whose links the viewer's first paint reads: its newest window of runs, and one past it. */
export async function drawnOrdinals(api: Api, threadId: string): Promise<{ from: number; to: number }> {
  const { thread } = await api.request<ThreadWindowQuery>(THREAD_QUERY, { id: threadId, last: WINDOW_RUNS });
  if (!thread) throw new Error(`the viewer found no thread ${threadId}`);
  return firstPaintLinks(thread, thread.runs);
}

export function viewerFirstPaint(): ViewerFirstPaint {
  const schema = readFileSync(join(projectRoot(), 'schema', 'threads.graphql'), 'utf8');
  return {
    runsSelection: `${/runs\([^)]*\)/.exec(THREAD_QUERY)?.[0] ?? 'no runs'} with last ${WINDOW_RUNS}`,
    schemaHasRunsWindow: /\bruns\([^)]*\blast:/.test(schema),
    async paint(api, threadId) {
      const { from, to } = await drawnOrdinals(api, threadId);
      for (const range of linkRanges(from, to)) await api.request(LINKS_QUERY, { id: threadId, ...range });
    },
  };
}
