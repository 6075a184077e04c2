// The lineage viewer's first paint, replayed from src/server/viewer/viewer.js as it is when the bench
// runs (its query texts and window sizes are read from the file), so that the bench measures what the
// viewer sends rather than a copy that drifts: loadThread's THREAD_QUERY for the newest window of runs,
// then LINKS_QUERY for the handoffs and transfers of that window's ordinals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/graph/projectRoot.js';
import type { Api } from './api.js';

export interface ViewerFirstPaint {
  /** The runs selection of THREAD_QUERY, e.g. `runs(last: $last)` with `last` 200, for the report. */
  runsSelection: string;
  /** Whether Thread.runs takes `last` in schema/threads.graphql, which the window needs. */
  schemaHasRunsWindow: boolean;
  paint(api: Api, threadId: string): Promise<void>;
}

interface WindowAnswer {
  thread: {
    headOrdinal: number;
    runs: { pageInfo: { hasPreviousPage: boolean }; edges: { node: { ordinal: number } }[] };
  } | null;
}

export function viewerFirstPaint(): ViewerFirstPaint {
  const file = join(projectRoot(), 'src', 'server', 'viewer', 'viewer.js');
  const source = readFileSync(file, 'utf8');
  const constants = new Map([...source.matchAll(/^const (\w+) = (?:`([^`]*)`|'([^']*)'|(\d+));$/gm)].map((match) => [match[1]!, match[2] ?? match[3] ?? match[4]!]));
  const constant = (name: string): string => {
    const value = constants.get(name);
    if (value === undefined) throw new Error(`${file} has no constant ${name}: the bench replays the viewer's first paint with it`);
    return value.replace(/\$\{(\w+)\}/g, (_, inner: string) => constant(inner));
  };
  const threadQuery = constant('THREAD_QUERY');
  const linksQuery = constant('LINKS_QUERY');
  const windowRuns = Number(constant('WINDOW_RUNS'));
  const linksRange = Number(constant('LINKS_RANGE'));
  const schema = readFileSync(join(projectRoot(), 'schema', 'threads.graphql'), 'utf8');
  return {
    runsSelection: `${/runs\([^)]*\)/.exec(threadQuery)?.[0] ?? 'no runs'} with last ${windowRuns}`,
    schemaHasRunsWindow: /\bruns\([^)]*\blast:/.test(schema),
    async paint(api, threadId) {
      const { thread } = await api.request<WindowAnswer>(threadQuery, { id: threadId, last: windowRuns });
      if (!thread) throw new Error(`the viewer found no thread ${threadId}`);
      const edges = thread.runs.edges;
      // As loadThread: from the window's oldest run when earlier ones remain, else from the first run
      // (the bench's threads are not forks), through one past the newest for a pending transfer.
      const from = thread.runs.pageInfo.hasPreviousPage ? edges[0]!.node.ordinal : 1;
      const to = Math.max(thread.headOrdinal, edges.at(-1)?.node.ordinal ?? 0) + 1;
      for (let start = from; start <= to; start += linksRange) {
        await api.request(linksQuery, { id: threadId, from: start, to: Math.min(to, start + linksRange - 1) });
      }
    },
  };
}
