// Finding threads through the service's thread index (Query.threads): the thread of a project, and
// the list `threadline threads` prints.
import {
  createThreadlineClient,
  ThreadsIndexDocument,
  type ThreadlineClient,
  type ThreadsIndexQuery,
} from '../client/index.js';
import { viewerUrl } from './demo.js';

export type IndexedThread = ThreadsIndexQuery['threads']['edges'][number]['node'];

/**
 * The app thread a project's runs go to: of the threads recorded for it (an import may have made
 * several, with --split session), the one most recently active; null when it has none.
 */
export async function threadOfProject(client: ThreadlineClient, project: string): Promise<string | null> {
  const { edges } = (await client.request(ThreadsIndexDocument, { filter: { project }, first: 100 })).threads;
  const newest = edges
    .map((edge) => edge.node)
    .reduce<IndexedThread | null>(
      (best, node) => (best === null || activity(node) > activity(best) ? node : best),
      null,
    );
  return newest?.id ?? null;
}

function activity(thread: IndexedThread): string {
  return String(thread.lastActivityAt ?? thread.createdAt);
}

export interface ThreadsOptions {
  url: string;
  token: string | undefined;
  filter: { project?: string; provider?: string; text?: string };
  first: number;
  json: boolean;
}

/** `threadline threads`: one page of the index, newest first. */
export async function threadsCommand(options: ThreadsOptions): Promise<number> {
  const client = createThreadlineClient({ url: options.url, apiKey: options.token });
  const filter = Object.fromEntries(Object.entries(options.filter).filter(([, value]) => value !== undefined));
  const page = (await client.request(ThreadsIndexDocument, { filter, first: options.first })).threads;
  const threads = page.edges.map((edge) => edge.node);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(threads)}\n`);
    return 0;
  }
  if (threads.length === 0) console.log('No threads.');
  for (const thread of threads) {
    console.log(`${thread.id}  ${thread.title ?? '(untitled)'}`);
    const providers = thread.providers.length > 0 ? thread.providers.join(', ') : 'no runs yet';
    console.log(
      `  ${thread.project ?? 'no project'} · ${thread.runCount} run(s) · ${providers} · last ${String(thread.lastActivityAt ?? thread.createdAt)}`,
    );
    console.log(`  ${viewerUrl(options.url, thread.id)}`);
  }
  if (page.pageInfo.hasNextPage)
    console.log(`More: --first ${Math.min(100, options.first * 2)}, or narrow with --search`);
  return 0;
}
