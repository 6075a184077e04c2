// Every answer is bounded: a query whose answer would pass THREADLINE_MAX_RESPONSE_BYTES is refused
// whole with RESPONSE_TOO_LARGE, over real HTTP, against runs whose texts are as long as the input
// limits allow; the lineage viewer's queries ask only for what it draws, and still answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as viewer from '../../src/viewer/queries.js';
import { createThread } from '../support/lineage.js';
import { codeOf, startTestService, type TestService } from '../support/service.js';

/** Small enough that one run with all its texts does not fit: 100k + 100k + 500 x 1.5k characters. */
const LIMIT = 800_000;
const RUNS = 4;
const FACTS = 500;

// Texts with a few characters of two, three and four bytes, so that bytes and characters differ.
const text = (seed: string, length: number) =>
  `${seed} é€😀 `.repeat(Math.ceil(length / (seed.length + 6))).slice(0, length);
const userMessage = (index: number) => text(`user ${index}`, 100_000);
const assistantMessage = (index: number) => text(`assistant ${index}`, 100_000);
// Facts in ASCII: completeRun's body must stay under the 1 MB request limit.
/** The first `count` characters, as Unicode code points. */
const firstChars = (value: string, count: number) => [...value].slice(0, count).join('');
const charLength = (value: string) => [...value].length;
const factText = (index: number, fact: number) =>
  `${String(fact).padStart(3, '0')} ${`fact of run ${index} `.repeat(120).slice(0, 1_496)}`;

let t: TestService;
let threadId: string;
const runIds: string[] = [];

async function post(service: TestService, query: string, variables: Record<string, unknown>) {
  const response = await fetch(service.service.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${service.apiKey}` },
    body: JSON.stringify({ query, variables }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    bytes: bytes.length,
    body: JSON.parse(bytes.toString('utf8')) as {
      data?: any;
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    },
  };
}

beforeAll(async () => {
  t = await startTestService({ THREADLINE_MAX_RESPONSE_BYTES: String(LIMIT) });
  threadId = await createThread(t, 'long texts');
  for (let index = 1; index <= RUNS; index++) {
    const started = await t.ok('mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }', {
      input: { threadId, provider: 'codex', userMessage: userMessage(index) },
    });
    const runId = started.startRun.run.id as string;
    runIds.push(runId);
    const facts = Array.from({ length: FACTS }, (_, fact) => ({ kind: 'NOTE', text: factText(index, fact) }));
    await t.ok('mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }', {
      input: { runId, assistantMessage: assistantMessage(index), facts },
    });
  }
});
afterAll(async () => {
  await t?.close();
});

const EVERY_TEXT = `query($id: ID!) { thread(id: $id) { runs(first: 500) { edges { node { userMessage assistantMessage facts { text } } } } } }`;

describe('an answer over the limit', () => {
  it('is refused whole with RESPONSE_TOO_LARGE, in an answer of its own size, and the service goes on', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await post(t, EVERY_TEXT, { id: threadId });
      expect(refused.status).toBe(200);
      expect(refused.body.data).toBeNull();
      expect(refused.body.errors).toHaveLength(1);
      expect(refused.body.errors![0]!.extensions).toEqual({ code: 'RESPONSE_TOO_LARGE', limitBytes: LIMIT });
      expect(refused.body.errors![0]!.message).toMatch(/800000/);
      expect(refused.bytes).toBeLessThan(1_000);
    }
    const thread = await t.ok(
      'query($id: ID!) { thread(id: $id) { headOrdinal runs(first: 500) { edges { node { id } } } } }',
      { id: threadId },
    );
    expect(thread.thread.runs.edges.map((edge: any) => edge.node.id)).toEqual(runIds);
  });

  it('is refused for one run whose texts alone pass it', async () => {
    const refused = await post(t, 'query($id: ID!) { run(id: $id) { userMessage assistantMessage facts { text } } }', {
      id: runIds[0],
    });
    expect(refused.body.errors?.map((error) => error.extensions?.code)).toEqual(['RESPONSE_TOO_LARGE']);
    expect(refused.body.data).toBeNull();
  });
});

describe('a mutation whose answer passes the limit', () => {
  it('is still done, and the refusal says so', async () => {
    const threadId = await createThread(t, 'a long completion');
    const started = await t.ok('mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }', {
      input: { threadId, provider: 'codex', userMessage: 'go' },
    });
    const runId = started.startRun.run.id as string;
    const facts = Array.from({ length: FACTS }, (_, fact) => ({ kind: 'NOTE', text: factText(9, fact) }));
    const refused = await post(
      t,
      'mutation($input: CompleteRunInput!) { completeRun(input: $input) { id status assistantMessage facts { text } } }',
      {
        input: { runId, assistantMessage: assistantMessage(9), facts },
      },
    );
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors?.map((error) => error.extensions?.code)).toEqual(['RESPONSE_TOO_LARGE']);
    expect(refused.body.errors![0]!.message).toMatch(/^The mutation was done; only its answer was refused\./);
    const after = await t.ok('query($id: ID!) { run(id: $id) { status factCount } }', { id: runId });
    expect(after.run).toEqual({ status: 'COMPLETED', factCount: FACTS });
  });
});

describe('the limit', () => {
  it('counts the bytes of the answer as sent: an answer of exactly the limit passes, one byte more is refused', async () => {
    const query = `query($id: ID!) { thread(id: $id) { id title runs(first: 2) { pageInfo { hasNextPage endCursor } edges { cursor node { __typename id ordinal status
      userMessage assistantMessage createdAt plan { decision reasons } } } } } }`;
    const measured = await post(t, query, { id: threadId });
    expect(measured.body.errors).toBeUndefined();
    // Multi-byte characters and escapes: the byte count is not the character count.
    expect(measured.bytes).toBeGreaterThan(JSON.stringify(measured.body).length);
    const exact = await startTestService({ THREADLINE_MAX_RESPONSE_BYTES: String(measured.bytes) });
    const under = await startTestService({ THREADLINE_MAX_RESPONSE_BYTES: String(measured.bytes - 1) });
    try {
      const passed = await post(exact, query, { id: threadId });
      expect(passed.body.errors).toBeUndefined();
      expect(passed.bytes).toBe(measured.bytes);
      const refused = await post(under, query, { id: threadId });
      expect(refused.body.errors?.map((error) => error.extensions)).toEqual([
        { code: 'RESPONSE_TOO_LARGE', limitBytes: measured.bytes - 1 },
      ]);
    } finally {
      await exact.close();
      await under.close();
    }
  });
});

describe('long texts', () => {
  it('a list asks for the first characters of each and its whole length, and fits', async () => {
    const data = await t.ok(
      `query($id: ID!) { thread(id: $id) { runs(first: 500) { edges { node { id userMessage(maxChars: 100) userMessageLength
        assistantMessage(maxChars: 7) assistantMessageLength } } } } }`,
      { id: threadId },
    );
    expect(data.thread.runs.edges.map((edge: any) => edge.node)).toEqual(
      runIds.map((id, index) => ({
        id,
        userMessage: firstChars(userMessage(index + 1), 100),
        userMessageLength: charLength(userMessage(index + 1)),
        assistantMessage: firstChars(assistantMessage(index + 1), 7),
        assistantMessageLength: charLength(assistantMessage(index + 1)),
      })),
    );
    expect(data.thread.runs.edges[0].node.assistantMessage).toBe('assista');
  });

  it('one run gives its whole messages back exact, and cuts mutation answers the same way', async () => {
    const { run } = await t.ok('query($id: ID!) { run(id: $id) { userMessage assistantMessage userMessageLength } }', {
      id: runIds[2],
    });
    expect(run).toEqual({
      userMessage: userMessage(3),
      assistantMessage: assistantMessage(3),
      userMessageLength: charLength(userMessage(3)),
    });
    // A cut counts code points: it never splits the emoji's surrogate pair.
    const started = await t.ok(
      'mutation($input: StartRunInput!) { startRun(input: $input) { run { id userMessage(maxChars: 9) userMessageLength assistantMessageLength } } }',
      {
        input: { threadId: await createThread(t, 'short texts'), provider: 'codex', userMessage: 'é€😀 and the rest' },
      },
    );
    expect(started.startRun.run).toMatchObject({
      userMessage: 'é€😀 and t',
      userMessageLength: 16,
      assistantMessageLength: null,
    });
    const failed = await t.ok(
      'mutation($input: FailRunInput!) { failRun(input: $input) { error userMessage(maxChars: 3) } }',
      {
        input: { runId: started.startRun.run.id, error: 'stopped' },
      },
    );
    expect(failed.failRun).toEqual({ error: 'stopped', userMessage: 'é€😀' });
  });

  it('refuses a negative maxChars or offset', async () => {
    for (const query of [
      'query($id: ID!) { run(id: $id) { userMessage(maxChars: -1) } }',
      'query($id: ID!) { run(id: $id) { facts { text(maxChars: -1) } } }',
      'query($id: ID!) { run(id: $id) { facts(offset: -1) { kind } } }',
    ]) {
      expect(codeOf(await t.gql(query, { id: runIds[0] })), query).toBe('BAD_USER_INPUT');
    }
  });

  it('facts page with first and offset, cut to maxChars, with their count and whole lengths', async () => {
    const { run } = await t.ok(
      `query($id: ID!) { run(id: $id) { factCount head: facts(first: 2) { text(maxChars: 12) textLength }
        tail: facts(first: 5, offset: 498) { ...cut } } } fragment cut on RunFact { text(maxChars: 3) whole: text textLength }`,
      { id: runIds[1] },
    );
    expect(run.factCount).toBe(FACTS);
    expect(run.head).toEqual([
      { text: factText(2, 0).slice(0, 12), textLength: 1_500 },
      { text: factText(2, 1).slice(0, 12), textLength: 1_500 },
    ]);
    expect(run.tail).toEqual(
      [498, 499].map((fact) => ({ text: String(fact), whole: factText(2, fact), textLength: 1_500 })),
    );
  });

  it("a run's facts, its messages cut, fit where all its texts do not", async () => {
    const { run } = await t.ok(
      'query($id: ID!) { run(id: $id) { userMessage(maxChars: 50) facts(first: 400) { text } } }',
      { id: runIds[3] },
    );
    expect(run.facts.map((fact: { text: string }) => fact.text)).toEqual(
      Array.from({ length: 400 }, (_, fact) => factText(4, fact)),
    );
  });

  it("a handoff's summary is cut the same way, and length is the whole summary's", async () => {
    const switched = await createThread(t, 'a switch');
    const first = await t.ok('mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }', {
      input: { threadId: switched, provider: 'codex', userMessage: 'é€😀 first' },
    });
    await t.ok('mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }', {
      input: {
        runId: first.startRun.run.id,
        assistantMessage: 'done',
        facts: [{ kind: 'DECISION', text: '😀 keep the parser' }],
      },
    });
    const second = await t.ok('mutation($input: StartRunInput!) { startRun(input: $input) { handoff { id } } }', {
      input: { threadId: switched, provider: 'claude', userMessage: 'next' },
    });
    const { contextHandoff } = await t.ok(
      'query($id: ID!) { contextHandoff(id: $id) { cut: summaryText(maxChars: 10) summaryText length } }',
      { id: second.startRun.handoff.id },
    );
    expect(contextHandoff.summaryText.length).toBeGreaterThan(10);
    expect(contextHandoff.cut).toBe(firstChars(contextHandoff.summaryText, 10));
    expect(contextHandoff.length).toBe(charLength(contextHandoff.summaryText));
  });

  it('are charged before they are read: a list whose messages pass the limit never reads them', async () => {
    const small = await startTestService({ THREADLINE_MAX_RESPONSE_BYTES: '500000' });
    try {
      const sessions = async (query: string) => {
        const before = small.sessionsOpened();
        const result = await small.gql(query, { id: threadId });
        return { code: codeOf(result), sessions: small.sessionsOpened() - before };
      };
      const ids = await sessions('query($id: ID!) { thread(id: $id) { runs(first: 4) { edges { node { id } } } } }');
      const cut = await sessions(
        'query($id: ID!) { thread(id: $id) { runs(first: 4) { edges { node { userMessage(maxChars: 10) } } } } }',
      );
      const whole = await sessions(
        'query($id: ID!) { thread(id: $id) { runs(first: 4) { edges { node { userMessage assistantMessage } } } } }',
      );
      expect(ids.code).toBeUndefined();
      // The lengths, then the texts.
      expect(cut).toEqual({ code: undefined, sessions: ids.sessions + 2 });
      // 800,000 characters of messages: refused after their lengths, before the texts.
      expect(whole).toEqual({ code: 'RESPONSE_TOO_LARGE', sessions: ids.sessions + 1 });
    } finally {
      await small.close();
    }
  });
});

/** The lineage viewer's queries by name, as it sends them. */
function viewerQueries(): Map<string, string> {
  return new Map(
    Object.entries(viewer)
      .filter(([name]) => name.endsWith('_QUERY'))
      .map(([name, text]) => [name, String(text)]),
  );
}

describe('the lineage viewer', () => {
  it('reads a thread whose runs hold the longest texts, each query well within the limit', async () => {
    const queries = viewerQueries();
    expect([...queries.keys()].sort()).toEqual([
      'EARLIER_RUNS_QUERY',
      'HANDOFF_DETAILS_QUERY',
      'LINKS_QUERY',
      'RUN_DETAILS_QUERY',
      'THREAD_INDEX_QUERY',
      'THREAD_QUERY',
    ]);
    const first = await post(t, queries.get('THREAD_QUERY')!, { id: threadId, last: 200 });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.thread.runs.edges.map((edge: any) => edge.node.id)).toEqual(runIds);
    const links = await post(t, queries.get('LINKS_QUERY')!, { id: threadId, from: 1, to: RUNS + 1 });
    expect(links.body.errors).toBeUndefined();

    // The panel of a run whose texts together pass the limit: the first characters of each.
    const details = await post(t, queries.get('RUN_DETAILS_QUERY')!, { id: runIds[0] });
    expect(details.body.errors).toBeUndefined();
    const run = details.body.data.run;
    expect(run.userMessage).toBe(firstChars(userMessage(1), 2_000));
    expect(run.userMessageLength).toBe(charLength(userMessage(1)));
    expect(run.factCount).toBe(FACTS);
    expect(run.facts).toHaveLength(40);
    expect(run.facts[39]).toEqual({
      kind: 'NOTE',
      text: factText(1, 39).slice(0, 600),
      textLength: 1_500,
      status: null,
    });
    expect(details.bytes).toBeLessThan(LIMIT / 10);

    // The thread index: a page of threads, each bounded like a title.
    const index = await post(t, queries.get('THREAD_INDEX_QUERY')!, { first: 25 });
    expect(index.body.errors).toBeUndefined();
    expect(index.body.data.threads.edges.length).toBeGreaterThan(0);
    expect(index.bytes).toBeLessThan(LIMIT / 10);
  });
});
