// Reading the thread through the public GraphQL API (POST /graphql, with the page's ?token= as a
// bearer token): the newest window of runs first, the window before it on demand, and the long texts
// of one run or handoff when it is clicked.
import type { HandoffDetailsQuery, RunDetailsQuery } from './generated/graphql.js';
import { firstPaintLinks, lowestShown, nothingRead, shownFrom, withWindow, type Loaded, type Links } from './layout.js';
import {
  EARLIER_RUNS_QUERY,
  HANDOFF_DETAILS_QUERY,
  LINKS_QUERY,
  RUN_DETAILS_QUERY,
  THREAD_QUERY,
  WINDOW_RUNS,
  linkRanges,
  type Query,
} from './queries.js';

/** A failure the page explains as it is (the others are "Unexpected error"). */
export class ViewerError extends Error {}

interface Answer<Result> {
  data?: Result | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export class GraphQLClient {
  constructor(
    private readonly url: string,
    private readonly token: string | null,
  ) {}

  async request<Result, Variables>(query: Query<Result, Variables>, variables: Variables): Promise<Result> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let response: Response;
    try {
      response = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    } catch (error) {
      throw new ViewerError(`The service at ${this.url} does not answer (${(error as Error).message}).`);
    }
    const body = (await response.json().catch(() => null)) as Answer<Result> | null;
    if (response.status === 401 || body?.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED') {
      throw new ViewerError(
        this.token
          ? 'The token was refused by the service.'
          : 'The service needs a bearer token: open this page with ?token=<your API key>.',
      );
    }
    if (!body) throw new ViewerError(`The service answered ${response.status} without JSON.`);
    if (body.errors?.length) throw new ViewerError(body.errors.map((error) => error.message).join('; '));
    return body.data as Result;
  }
}

/** The handoffs, transfers, forks, subagents and provider threads of ordinals from..to, read in ranges the API accepts. */
async function readLinks(client: GraphQLClient, id: string, from: number, to: number): Promise<Links> {
  const links: Links = { handoffs: [], transfers: [], forks: [], subagents: [], providerThreads: [] };
  for (const range of linkRanges(from, to)) {
    const read = (await client.request(LINKS_QUERY, { id, ...range })).thread;
    if (!read) throw new ViewerError(`The thread ${id} is no longer there.`);
    links.handoffs.push(...read.handoffs);
    links.transfers.push(...read.transfers);
    links.forks.push(...read.forks);
    links.subagents.push(...read.subagents);
    links.providerThreads.push(...read.providerThreads);
  }
  return links;
}

/** The first paint: the thread, its provider threads and the newest window with its links. Null when there is no such thread. */
export async function loadThread(client: GraphQLClient, id: string): Promise<Loaded | null> {
  const thread = (await client.request(THREAD_QUERY, { id, last: WINDOW_RUNS })).thread;
  if (!thread) return null;
  const { runs: page, ...header } = thread;
  const { from, to } = firstPaintLinks(header, page);
  return withWindow(nothingRead(header), page, await readLinks(client, header.id, from, to));
}

/** `loaded` with the window before its first run drawn; nothing changes unless all of it was read. */
export async function loadEarlierRuns(client: GraphQLClient, loaded: Loaded): Promise<Loaded> {
  const previousFrom = shownFrom(loaded);
  const thread = (
    await client.request(EARLIER_RUNS_QUERY, { id: loaded.thread.id, last: WINDOW_RUNS, before: loaded.earlierCursor })
  ).thread;
  if (!thread) throw new ViewerError(`The thread ${loaded.thread.id} is no longer there.`);
  const page = thread.runs;
  return withWindow(
    loaded,
    page,
    await readLinks(
      client,
      loaded.thread.id,
      lowestShown(loaded.thread, page.edges[0]?.node, page.pageInfo.hasPreviousPage),
      previousFrom - 1,
    ),
  );
}

export type RunDetails = NonNullable<RunDetailsQuery['run']>;
export type HandoffDetails = NonNullable<HandoffDetailsQuery['contextHandoff']>;

/** The texts of the runs and handoffs clicked: one query each, kept for the next click (a failed one is asked again). */
export class Details {
  private readonly runs = new Map<string, Promise<RunDetails | null>>();
  private readonly handoffs = new Map<string, Promise<HandoffDetails | null>>();

  constructor(private readonly client: GraphQLClient) {}

  run(id: string): Promise<RunDetails | null> {
    return once(this.runs, id, () => this.client.request(RUN_DETAILS_QUERY, { id }).then((data) => data.run));
  }

  handoff(id: string): Promise<HandoffDetails | null> {
    return once(this.handoffs, id, () =>
      this.client.request(HANDOFF_DETAILS_QUERY, { id }).then((data) => data.contextHandoff),
    );
  }
}

function once<T>(cache: Map<string, Promise<T>>, id: string, read: () => Promise<T>): Promise<T> {
  let request = cache.get(id);
  if (!request) {
    request = read();
    request.catch(() => cache.delete(id));
    cache.set(id, request);
  }
  return request;
}
