// Several instances, causal reads: a mutation's answer carries its transaction's bookmark
// (extensions.bookmark), and another instance that is sent it back (the threadline-bookmark header)
// reads at least that state. One instance drives Neo4j through a neo4j:// routing URI, as on a
// cluster or Aura: the local single instance answers the routing table with itself, so its reads
// (read transactions) and writes are routed like a cluster's. On one Neo4j every read sees every
// committed write anyway; what shows the bookmark reaches the database is that one it did not
// issue is refused, before anything is written.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createThreadlineClient, CreateThreadDocument, ThreadRunsDocument } from '../../client/index.js';
import { loadConfig, SINGLE_TENANT } from '../../src/config.js';
import { createDriver } from '../../src/graph/driver.js';
import { startService } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';

const HEADER = 'threadline-bookmark';

interface Answer {
  status: number;
  data: Record<string, any> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
  extensions?: { bookmark?: string };
}

let a: TestService;
let b: TestService;
/** An instance whose driver routes: neo4j:// instead of bolt://. */
let routed: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  // The routed instance is started here without keys, so all three run without: they write under 'local'.
  [a, b] = await Promise.all([
    startTestService({}, { tenant: SINGLE_TENANT }),
    startTestService({}, { tenant: SINGLE_TENANT }),
  ]);
  const neo4j = inject('neo4j');
  const driver = createDriver({ ...neo4j, uri: neo4j.uri.replace(/^bolt:/, 'neo4j:') });
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const service = await startService(
    { ...config, neo4j: { ...config.neo4j, uri: neo4j.uri.replace(/^bolt:/, 'neo4j:'), database: neo4j.database } },
    driver,
    createLogger('silent'),
  );
  routed = {
    url: service.url,
    close: async () => {
      await service.close();
      await driver.close();
    },
  };
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close(), routed?.close()]);
});

async function post(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  bookmark?: string,
): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bookmark === undefined ? {} : { [HEADER]: bookmark }) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) };
}

const CREATE = `mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`;
const START = `mutation($input: StartRunInput!) { startRun(input: $input) { run { id ordinal status } } }`;
const COMPLETE = `mutation($input: CompleteRunInput!) { completeRun(input: $input) { id status } }`;
const RUN = `query($id: ID!) { run(id: $id) { id status } }`;
const THREAD = `query($id: ID!) { thread(id: $id) { id headOrdinal } }`;

describe('bookmarks across instances', () => {
  it('answer every mutation with a bookmark that another instance, and a routed one, read after', async () => {
    const threadId = uniqueId('bookmarks');
    const created = await post(a.service.url, CREATE, { input: { id: threadId } });
    expect(created.extensions?.bookmark).toMatch(/\S/);
    const started = await post(
      a.service.url,
      START,
      { input: { threadId, provider: 'codex', userMessage: 'first' } },
      created.extensions!.bookmark,
    );
    const runId = started.data!.startRun.run.id as string;
    const afterStart = started.extensions!.bookmark!;
    expect(afterStart).toMatch(/\S/);
    expect(afterStart).not.toBe(created.extensions!.bookmark);

    // B reads what A wrote, then writes after it; its answer carries the newer state.
    const seen = await post(b.service.url, RUN, { id: runId }, afterStart);
    expect(seen.data!.run).toEqual({ id: runId, status: 'RUNNING' });
    expect(seen.extensions?.bookmark).toBeUndefined();
    const completed = await post(b.service.url, COMPLETE, { input: { runId, assistantMessage: 'done' } }, afterStart);
    expect(completed.data!.completeRun.status).toBe('COMPLETED');
    const afterComplete = completed.extensions!.bookmark!;
    expect(afterComplete).not.toBe(afterStart);

    // The routed instance reads it (a read transaction, routed to a reader) and writes (to the writer).
    expect((await post(routed.url, RUN, { id: runId }, afterComplete)).data!.run.status).toBe('COMPLETED');
    const next = await post(
      routed.url,
      START,
      { input: { threadId, provider: 'claude', userMessage: 'second' } },
      afterComplete,
    );
    expect(next.errors).toBeUndefined();
    expect(next.data!.startRun.run.ordinal).toBe(2);
    expect(next.extensions?.bookmark).toMatch(/\S/);
    expect(
      (await post(a.service.url, THREAD, { id: threadId }, next.extensions!.bookmark)).data!.thread.headOrdinal,
    ).toBe(2);
  });

  it('refuses a bookmark the database did not issue, and writes nothing', async () => {
    const threadId = uniqueId('bookmarks');
    const refused = await post(a.service.url, CREATE, { input: { id: threadId } }, 'FB:not-a-bookmark');
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: HEADER });
    expect((await post(b.service.url, THREAD, { id: threadId })).data!.thread).toBeNull();

    const long = await post(a.service.url, THREAD, { id: threadId }, 'x'.repeat(5000));
    expect(long.status).toBe(400);
    expect(long.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: HEADER });
  });

  it('lets the typed client send back the newest bookmark it was answered', async () => {
    const writer = createThreadlineClient({ url: a.service.url, causal: true });
    expect(writer.bookmark()).toBeNull();
    const threadId = uniqueId('bookmarks');
    await writer.request(CreateThreadDocument, { input: { id: threadId } });
    expect(writer.bookmark()).toMatch(/\S/);
    const reader = createThreadlineClient({ url: b.service.url, bookmark: writer.bookmark()! });
    expect((await reader.request(ThreadRunsDocument, { id: threadId })).thread?.headOrdinal).toBe(0);
    const mangled = createThreadlineClient({ url: b.service.url, bookmark: 'FB:not-a-bookmark' });
    await expect(mangled.request(ThreadRunsDocument, { id: threadId })).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });
});
