// Hostile input against every query and mutation, listed from the schema itself: a field without a
// row fails the test. Per field, generated from its argument types: unknown ids, then another
// tenant's ids (the same answer, so existence never leaks), wrong shapes, strings past their limits,
// control characters, lone surrogates, plus the row's own refusals. Each gets its documented code,
// leaves both tenants' graphs exactly as they were, and the service answers { __typename } after it.
// Last, a valid call whose free text is Cypher- and GraphQL-looking, read back byte-exact.
// Then whole requests: deep, wide, alias and directive bombs, token floods, bad and oversized bodies.
import {
  buildSchema,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadTypeDefs } from '../../src/api/schema.js';
import { QUERY_LIMITS } from '../../src/server/armor.js';
import * as viewer from '../../src/viewer/queries.js';
import {
  settingsFile,
  startTestService,
  uniqueId,
  type GraphQLResponse,
  type TestService,
} from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

type Vars = Record<string, any>;
type State = Vars;

const A = { key: uniqueId('hostile-a-key'), tenant: fileTenant('a') };
const B = { key: uniqueId('hostile-b-key'), tenant: fileTenant('b') };

let t: TestService;
beforeAll(async () => {
  // Claude's summaries are written by Claude itself, so a switch into Claude leaves a PENDING handoff.
  const summaries = settingsFile({ default: 'local', providers: { claude: 'entering' } });
  t = await startTestService({
    THREADLINE_API_KEYS: `${A.key}=${A.tenant},${B.key}=${B.tenant}`,
    THREADLINE_SUMMARIES_FILE: summaries,
  });
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// The schema's root fields, and calls of them with every argument a variable

const schema = buildSchema(loadTypeDefs().join('\n'));
const ROOT_FIELDS = new Map<string, GraphQLField<unknown, unknown>>(
  [schema.getQueryType()!, schema.getMutationType()!].flatMap((root) =>
    Object.values(root.getFields()).map((field) => [`${root.name}.${field.name}`, field] as const),
  ),
);

function operation(path: string, select: string): string {
  const [root, name] = path.split('.') as [string, string];
  const { args } = ROOT_FIELDS.get(path)!;
  const definitions = args.length ? `(${args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ')})` : '';
  const passed = args.length ? `(${args.map((arg) => `${arg.name}: $${arg.name}`).join(', ')})` : '';
  return `${root.toLowerCase()}${definitions} { ${name}${passed} ${select} }`;
}

const call = (path: string, select: string, variables: Vars, key: string) =>
  t.gql(operation(path, select), variables, key);
const a = {
  ok: <T = any>(query: string, variables?: Vars) => t.ok<T>(query, variables, A.key),
};

// ---------------------------------------------------------------------------------------------
// Tenant A's objects, made fresh for each row

async function newThread(): Promise<string> {
  return (await a.ok('mutation { createThread(input: { title: "a" }) { id } }')).createThread.id;
}
async function start(threadId: string, provider: string) {
  const query =
    'mutation($input: StartRunInput!) { startRun(input: $input) { run { id } providerThread { id } handoff { id } } }';
  return (await a.ok(query, { input: { threadId, provider, userMessage: 'turn' } })).startRun;
}
async function complete(runId: string, input: Vars = {}) {
  await a.ok('mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }', {
    input: { runId, ...input },
  });
}
async function turn(threadId: string, provider: string, input?: Vars) {
  const started = await start(threadId, provider);
  await complete(started.run.id, input);
  return started;
}
/** A thread whose codex run 1 is done and whose run 2 switched to claude (a PENDING handoff). */
async function switched() {
  const threadId = await newThread();
  await turn(threadId, 'codex');
  const second = await start(threadId, 'claude');
  return { threadId, runId: second.run.id, handoffId: second.handoff.id };
}
/** A thread rolled back from run 2 to 1: its codex provider thread awaits the native rollback. */
async function rolledBack() {
  const threadId = await newThread();
  const { providerThread } = await turn(threadId, 'codex');
  await turn(threadId, 'codex');
  await a.ok('mutation($input: RollbackThreadInput!) { rollbackThread(input: $input) { thread { id } } }', {
    input: { threadId, toOrdinal: 1 },
  });
  return { providerThreadId: providerThread.id };
}
async function storedProperty(label: string, id: string, property: string): Promise<unknown> {
  const { records } = await t.driver.executeQuery(
    `MATCH (n:${label} {tenant: $tenant, id: $id}) RETURN n[$property] AS value`,
    { tenant: A.tenant, id, property },
    { database: inject('neo4j').database },
  );
  return records[0]?.get('value');
}

const IMPORT_RUNS = 'mutation($input: ImportRunsInput!) { importRuns(input: $input) { providerThread { id } } }';
/** A thread holding an imported session (its provider thread, no runs yet). */
async function importedSession() {
  const threadId = await newThread();
  const nativeThreadRef = uniqueId('session');
  await a.ok(IMPORT_RUNS, { input: { threadId, providerThread: { provider: 'codex', nativeThreadRef }, runs: [] } });
  return { threadId, nativeThreadRef };
}
const importedRun = () => ({
  sourceKey: hostile(),
  startedAt: '2025-07-01T10:00:00Z',
  completedAt: '2025-07-01T12:01:00+02:00',
  status: 'FAILED',
  model: hostile(),
  userMessage: hostile(),
  assistantMessage: hostile(),
  error: hostile(),
  facts: [{ kind: 'DECISION', text: hostile(), key: hostile(), status: hostile() }],
});
/** A Claude Code session's lines for one turn: a user message and its answer. */
const CLAUDE_TURN = [
  {
    type: 'user',
    uuid: 'u-1',
    parentUuid: null,
    sessionId: 's-1',
    timestamp: '2025-07-01T10:00:00Z',
    message: { role: 'user', content: 'Add coupons' },
  },
  {
    type: 'assistant',
    uuid: 'u-2',
    parentUuid: 'u-1',
    sessionId: 's-1',
    timestamp: '2025-07-01T10:00:05Z',
    message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done.' }] },
  },
].map((record) => JSON.stringify(record));

// Free text of the valid calls: Cypher- and GraphQL-looking, escapes, whitespace and astral
// characters, each made unique so that its read-back is its own.
const HOSTILE = [
  "'}) DETACH DELETE n //",
  '{ __schema { types { name } } }',
  '"}) MATCH (n) SET n.tenant = "other" RETURN n //',
  'query { threads { edges { node { id } } } } # $tenant',
  '\\u0000 \\" \\\\ ${tenant} %s %n',
  'tab\there, newline\nthere, CRLF\r\nand 𝄞 ünï ‏RTL‎',
  '<script>alert(1)</script>',
];
let written = 0;
const hostile = () => `${HOSTILE[written++ % HOSTILE.length]} ~${written}~`;

const HOUR = 3_600_000;
const BAD_CURSOR = (position: unknown) => Buffer.from(JSON.stringify(position)).toString('base64url');

// ---------------------------------------------------------------------------------------------
// One row per root field

interface Row {
  /** Selection set of the field's result. */
  select: string;
  /** Tenant A's objects the call names, fresh for this row. */
  prepare?: () => Promise<State>;
  /** A valid call as tenant A; its free text is hostile(). */
  args: (state: State) => Vars;
  /** String arguments that must be one of a few values (a provider, a cursor, a date). */
  choices?: string[];
  /** Further refusals of this field, with their code. */
  refused?: { name: string; args: (state: State) => Vars; code: string }[];
  /** What the valid call stored, through the API (or the graph, where no field returns it). */
  readBack?: (state: State, data: any) => Promise<unknown>;
  /** For a field that names no id: what tenant B gets of tenant A's data. */
  isolation?: (state: State) => Promise<void>;
}

const ROWS: Record<string, Row> = {
  'Query.providers': {
    select: '{ id displayName }',
    args: () => ({}),
    isolation: async () => {
      // Configuration, not tenant data: the same for every tenant.
      const [mine, theirs] = await Promise.all([
        call('Query.providers', '{ id }', {}, A.key),
        call('Query.providers', '{ id }', {}, B.key),
      ]);
      expect(theirs.data).toEqual(mine.data);
    },
  },
  'Query.thread': {
    select: '{ id title }',
    prepare: async () => ({ threadId: await newThread() }),
    args: (s) => ({ id: s.threadId }),
  },
  'Query.threads': {
    select: '{ edges { node { id } } pageInfo { endCursor } }',
    prepare: async () => {
      const threadId = await newThread();
      const after = (await a.ok('{ threads(first: 1) { pageInfo { endCursor } } }')).threads.pageInfo.endCursor;
      return { threadId, after };
    },
    args: (s) => ({ first: 100, after: s.after }),
    choices: ['after'],
    refused: [
      {
        name: 'a cursor whose time is Cypher',
        args: () => ({ after: BAD_CURSOR({ createdAt: "'}) DETACH DELETE n //", id: 'x' }) }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'a cursor without its id',
        args: () => ({ after: BAD_CURSOR({ createdAt: new Date().toISOString() }) }),
        code: 'BAD_USER_INPUT',
      },
      { name: "a run page's cursor", args: () => ({ after: BAD_CURSOR({ ordinal: 1 }) }), code: 'BAD_USER_INPUT' },
      { name: 'first past Int', args: () => ({ first: 2 ** 31 }), code: 'BAD_USER_INPUT' },
    ],
    isolation: async (s) => {
      for (const variables of [{ first: 100 }, { first: 100, after: s.after }]) {
        const ids = (
          await call('Query.threads', '{ edges { node { id } } }', variables, B.key)
        ).data!.threads.edges.map((edge: any) => edge.node.id);
        expect(ids).not.toContain(s.threadId);
      }
    },
  },
  'Query.run': {
    select: '{ id userMessage }',
    prepare: async () => ({ runId: (await start(await newThread(), 'codex')).run.id }),
    args: (s) => ({ id: s.runId }),
  },
  'Query.providerThread': {
    select: '{ id nativeThreadRef }',
    prepare: async () => ({ providerThreadId: (await start(await newThread(), 'codex')).providerThread.id }),
    args: (s) => ({ id: s.providerThreadId }),
  },
  'Query.contextHandoff': {
    select: '{ id summaryText }',
    prepare: switched,
    args: (s) => ({ id: s.handoffId }),
  },
  'Query.planRun': {
    select: '{ decision reasons }',
    prepare: async () => ({ threadId: await newThread() }),
    args: (s) => ({
      input: { threadId: s.threadId, provider: 'codex', model: hostile(), runtimeMode: hostile(), cleanContext: true },
    }),
    choices: ['provider'],
  },
  'Query.previewRun': {
    select: '{ plan { decision reasons } context }',
    prepare: async () => ({ threadId: await newThread() }),
    args: (s) => ({
      input: { threadId: s.threadId, provider: 'codex', model: hostile(), runtimeMode: hostile(), cleanContext: true },
    }),
    choices: ['provider'],
  },
  'Query.providerThreadsByNativeRef': {
    select: '{ id threadId nativeThreadRef }',
    prepare: importedSession,
    args: (s) => ({ provider: 'codex', nativeThreadRef: s.nativeThreadRef }),
    isolation: async (s) => {
      const variables = { provider: 'codex', nativeThreadRef: s.nativeThreadRef };
      expect(
        (await call('Query.providerThreadsByNativeRef', '{ threadId }', variables, A.key)).data!
          .providerThreadsByNativeRef,
      ).toEqual([{ threadId: s.threadId }]);
      expect(
        (await call('Query.providerThreadsByNativeRef', '{ threadId }', variables, B.key)).data!
          .providerThreadsByNativeRef,
      ).toEqual([]);
    },
  },
  'Query.analytics': {
    select: '{ crossProvider { switches } staleness { runs } summaryProvenance { handoffs } }',
    prepare: switched,
    args: () => ({ from: new Date(Date.now() - HOUR).toISOString(), to: new Date(Date.now() + HOUR).toISOString() }),
    choices: ['from', 'to'],
    refused: [
      {
        name: 'from after to',
        args: () => ({
          from: new Date(Date.now() + HOUR).toISOString(),
          to: new Date(Date.now() - HOUR).toISOString(),
        }),
        code: 'BAD_USER_INPUT',
      },
    ],
    isolation: async () => {
      const window = ROWS['Query.analytics']!.args({});
      const select = '{ crossProvider { switches } staleness { runs } summaryProvenance { handoffs } }';
      expect(
        (await call('Query.analytics', select, window, A.key)).data!.analytics.crossProvider.length,
      ).toBeGreaterThan(0);
      expect((await call('Query.analytics', select, window, B.key)).data!.analytics).toEqual({
        crossProvider: [],
        staleness: [],
        summaryProvenance: [],
      });
    },
  },
  'Mutation.createThread': {
    select: '{ id title }',
    prepare: async () => ({ threadId: await newThread() }),
    args: () => ({ input: { id: hostile(), title: hostile() } }),
    readBack: (_s, data) => a.ok('query($id: ID!) { thread(id: $id) { id title } }', { id: data.createThread.id }),
    isolation: async (s) => {
      // The same client-chosen id names a thread of B's own, never A's.
      const bs = await call(
        'Mutation.createThread',
        '{ id title headOrdinal }',
        { input: { id: s.threadId, title: 'b' } },
        B.key,
      );
      expect(bs.data!.createThread).toEqual({ id: s.threadId, title: 'b', headOrdinal: 0 });
      expect((await a.ok('query($id: ID!) { thread(id: $id) { title } }', { id: s.threadId })).thread).toEqual({
        title: 'a',
      });
    },
  },
  'Mutation.renameThread': {
    select: '{ id title }',
    prepare: async () => ({ threadId: await newThread() }),
    args: (s) => ({ input: { id: s.threadId, title: hostile() } }),
    readBack: (s) => a.ok('query($id: ID!) { thread(id: $id) { id title } }', { id: s.threadId }),
    isolation: async (s) => {
      const theirs = await call('Mutation.renameThread', '{ id }', { input: { id: s.threadId, title: 'b' } }, B.key);
      expect(theirs.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect((await a.ok('query($id: ID!) { thread(id: $id) { title } }', { id: s.threadId })).thread).toEqual({
        title: 'a',
      });
    },
  },
  'Mutation.deleteThread': {
    select: '{ id }',
    prepare: async () => ({ threadId: await newThread() }),
    args: (s) => ({ input: { id: s.threadId } }),
    readBack: (s) => a.ok('query($id: ID!) { thread(id: $id) { id } }', { id: s.threadId }),
    isolation: async (s) => {
      const theirs = await call('Mutation.deleteThread', '{ id }', { input: { id: s.threadId } }, B.key);
      expect(theirs.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    },
  },
  'Mutation.recordFact': {
    select: '{ run { id } fact { text key } }',
    prepare: async () => {
      const threadId = await newThread();
      await turn(threadId, 'codex');
      return { threadId };
    },
    args: (s) => ({ input: { threadId: s.threadId, kind: 'NOTE', text: hostile(), key: hostile() } }),
    readBack: (_s, data) =>
      a.ok('query($id: ID!) { run(id: $id) { facts(first: 100) { text key } } }', { id: data.recordFact.run.id }),
  },
  'Mutation.importSubagentThread': {
    select: '{ id title }',
    prepare: async () => {
      const threadId = await newThread();
      await turn(threadId, 'codex');
      return { threadId };
    },
    args: (s) => ({
      input: { parentThreadId: s.threadId, parentRunOrdinal: 1, id: hostile(), title: hostile(), task: hostile() },
    }),
    // The task is kept on the spawn transfer, consumed: the subagent's provider already had it.
    readBack: async (_s, data) => {
      const { id } = data.importSubagentThread;
      const { records } = await t.driver.executeQuery(
        'MATCH (x:ContextTransfer {tenant: $tenant, targetThreadId: $id}) RETURN x.contextText AS task',
        { tenant: A.tenant, id },
        { database: inject('neo4j').database },
      );
      return [
        await a.ok('query($id: ID!) { thread(id: $id) { id title } }', { id }),
        records.map((record) => record.get('task')),
      ];
    },
  },
  'Mutation.startRun': {
    select: '{ run { id } }',
    prepare: async () => {
      const threadId = await newThread();
      await turn(threadId, 'codex');
      return { threadId };
    },
    // Into claude with operator-written context: every free-text input of startRun at once.
    args: (s) => ({
      input: {
        threadId: s.threadId,
        provider: 'claude',
        model: hostile(),
        runtimeMode: hostile(),
        userMessage: hostile(),
        idempotencyKey: hostile(),
        manualContext: hostile(),
      },
    }),
    choices: ['provider'],
    readBack: async (_s, data) => {
      const { id } = data.startRun.run;
      return [
        await a.ok(
          'query($id: ID!) { run(id: $id) { userMessage model runtimeMode contextHandoff { summaryText } } }',
          { id },
        ),
        await storedProperty('Run', id, 'idempotencyKey'),
      ];
    },
  },
  'Mutation.completeRun': {
    select: '{ id status }',
    prepare: async () => ({ runId: (await start(await newThread(), 'codex')).run.id }),
    args: (s) => ({
      input: {
        runId: s.runId,
        assistantMessage: hostile(),
        facts: [{ kind: 'DECISION', text: hostile(), key: hostile(), status: hostile() }],
        checkpoint: {
          ref: hostile(),
          diffSummary: hostile(),
          files: [{ path: hostile(), change: 'MODIFIED', additions: 1, deletions: 2 }],
        },
      },
    }),
    refused: [
      {
        name: 'one fact past the limit',
        args: (s) => ({
          input: { runId: s.runId, facts: Array.from({ length: 501 }, () => ({ kind: 'NOTE', text: 'f' })) },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'one file past the limit',
        args: (s) => ({
          input: {
            runId: s.runId,
            checkpoint: { ref: 'r', files: Array.from({ length: 2001 }, () => ({ path: 'p', change: 'ADDED' })) },
          },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'negative additions',
        args: (s) => ({
          input: { runId: s.runId, checkpoint: { ref: 'r', files: [{ path: 'p', change: 'ADDED', additions: -1 }] } },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'additions past Int',
        args: (s) => ({
          input: {
            runId: s.runId,
            checkpoint: { ref: 'r', files: [{ path: 'p', change: 'ADDED', additions: 2 ** 31 }] },
          },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'an unknown fact kind',
        args: (s) => ({ input: { runId: s.runId, facts: [{ kind: 'DROP_TABLES', text: 'f' }] } }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'raw events of another format',
        args: (s) => ({ input: { runId: s.runId, rawEvents: { format: 'CODEX', lines: CLAUDE_TURN } } }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'a raw event that is Cypher',
        args: (s) => ({
          input: { runId: s.runId, rawEvents: { format: 'CLAUDE', lines: [...CLAUDE_TURN, "'}) DETACH DELETE n //"] } },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'one raw event past the limit',
        args: (s) => ({
          input: {
            runId: s.runId,
            rawEvents: { format: 'CLAUDE', lines: Array.from({ length: 2001 }, () => CLAUDE_TURN[0]!) },
          },
        }),
        code: 'BAD_USER_INPUT',
      },
    ],
    readBack: (s) =>
      a.ok(
        'query($id: ID!) { run(id: $id) { assistantMessage facts { text key status } checkpoint { ref diffSummary files { path } } } }',
        { id: s.runId },
      ),
  },
  'Mutation.importRuns': {
    select: '{ runs { id } alreadyPresent }',
    prepare: async () => {
      const busyThreadId = await newThread();
      await start(busyThreadId, 'codex');
      const held = await importedSession();
      return { threadId: await newThread(), busyThreadId, heldRef: held.nativeThreadRef };
    },
    args: (s) => ({
      input: {
        threadId: s.threadId,
        providerThread: { provider: 'claude', nativeThreadRef: hostile(), model: hostile() },
        runs: [importedRun()],
      },
    }),
    choices: ['provider'],
    refused: [
      {
        name: 'a thread with a running run',
        args: (s) => ({
          input: {
            threadId: s.busyThreadId,
            providerThread: { provider: 'claude', nativeThreadRef: 'r' },
            runs: [importedRun()],
          },
        }),
        code: 'RUN_IN_PROGRESS',
      },
      {
        name: 'a session another thread holds',
        args: (s) => ({
          input: {
            threadId: s.threadId,
            providerThread: { provider: 'codex', nativeThreadRef: s.heldRef },
            runs: [importedRun()],
          },
        }),
        code: 'CONFLICT',
      },
      {
        name: 'an unknown provider',
        args: (s) => ({
          input: {
            threadId: s.threadId,
            providerThread: { provider: "'}) DETACH DELETE n //", nativeThreadRef: 'r' },
            runs: [],
          },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'a start that is not a date',
        args: (s) => ({
          input: {
            threadId: s.threadId,
            providerThread: { provider: 'codex', nativeThreadRef: 'r' },
            runs: [{ ...importedRun(), startedAt: "'}) DETACH DELETE n //" }],
          },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'a start that is a number',
        args: (s) => ({
          input: {
            threadId: s.threadId,
            providerThread: { provider: 'codex', nativeThreadRef: 'r' },
            runs: [{ ...importedRun(), startedAt: 1751364000000 }],
          },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'runs out of time order',
        args: (s) => ({
          input: {
            threadId: s.threadId,
            providerThread: { provider: 'codex', nativeThreadRef: 'r' },
            runs: [importedRun(), { ...importedRun(), startedAt: '2025-07-01T09:00:00Z' }],
          },
        }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'one run past the limit',
        args: (s) => ({
          input: {
            threadId: s.threadId,
            providerThread: { provider: 'codex', nativeThreadRef: 'r' },
            runs: Array.from({ length: 101 }, (_, index) => ({
              sourceKey: `k${index}`,
              startedAt: '2025-07-01T10:00:00Z',
              status: 'COMPLETED',
              userMessage: 'm',
            })),
          },
        }),
        code: 'BAD_USER_INPUT',
      },
    ],
    // The turn's key is kept inside the run's import key, beside the provider and the session.
    readBack: async (_s, data) => {
      const [{ id }] = data.importRuns.runs;
      const run = await a.ok(
        'query($id: ID!) { run(id: $id) { userMessage assistantMessage error model facts { text key status } providerThread { nativeThreadRef model } } }',
        { id },
      );
      return [run, JSON.parse(String(await storedProperty('Run', id, 'importKey')))];
    },
  },
  'Mutation.failRun': {
    select: '{ id status }',
    prepare: async () => ({ runId: (await start(await newThread(), 'codex')).run.id }),
    args: (s) => ({ input: { runId: s.runId, error: hostile(), interrupted: true } }),
    refused: [
      {
        name: 'a fencing token that is Cypher',
        args: (s) => ({ input: { runId: s.runId, error: 'e', fencingToken: "'}) DETACH DELETE n //" } }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'a fencing token of another run',
        args: (s) => ({ input: { runId: s.runId, error: 'e', fencingToken: `${hostile()}~1` } }),
        code: 'BAD_USER_INPUT',
      },
    ],
    readBack: (s) => a.ok('query($id: ID!) { run(id: $id) { error } }', { id: s.runId }),
  },
  'Mutation.bindProviderThread': {
    select: '{ id }',
    prepare: async () => ({ providerThreadId: (await start(await newThread(), 'codex')).providerThread.id }),
    args: (s) => ({ input: { providerThreadId: s.providerThreadId, nativeThreadRef: hostile() } }),
    readBack: (s) =>
      a.ok('query($id: ID!) { providerThread(id: $id) { nativeThreadRef } }', { id: s.providerThreadId }),
  },
  'Mutation.bindNativeThread': {
    select: '{ providerThread { id } resumedBlank }',
    prepare: async () => ({ providerThreadId: (await start(await newThread(), 'codex')).providerThread.id }),
    args: (s) => ({ input: { providerThreadId: s.providerThreadId, nativeThreadRef: hostile() } }),
    refused: [
      {
        name: 'a fencing token that is Cypher',
        args: (s) => ({
          input: {
            providerThreadId: s.providerThreadId,
            nativeThreadRef: 'n',
            fencingToken: "'}) DETACH DELETE n //~1",
          },
        }),
        code: 'NOT_FOUND',
      },
    ],
    readBack: (s) =>
      a.ok('query($id: ID!) { providerThread(id: $id) { nativeThreadRef } }', { id: s.providerThreadId }),
  },
  'Mutation.reportResumeFailure': {
    select: '{ run { id } }',
    prepare: async () => {
      // Codex, claude, codex again: run 3 resumes codex's provider thread.
      const threadId = await newThread();
      await turn(threadId, 'codex');
      await turn(threadId, 'claude');
      return { runId: (await start(threadId, 'codex')).run.id };
    },
    args: (s) => ({ input: { runId: s.runId, error: hostile() } }),
    readBack: (_s, data) =>
      a.ok('query($id: ID!) { run(id: $id) { plan { reasons } } }', { id: data.reportResumeFailure.run.id }),
  },
  'Mutation.submitHandoffSummary': {
    select: '{ id status }',
    prepare: switched,
    args: (s) => ({ input: { handoffId: s.handoffId, summaryText: hostile(), createdByProvider: 'claude' } }),
    choices: ['createdByProvider'],
    readBack: (s) => a.ok('query($id: ID!) { contextHandoff(id: $id) { summaryText } }', { id: s.handoffId }),
  },
  'Mutation.regenerateHandoff': {
    select: '{ id status }',
    prepare: switched,
    args: (s) => ({ input: { handoffId: s.handoffId, source: 'local' } }),
    choices: ['source'],
  },
  'Mutation.rollbackThread': {
    select: '{ thread { headOrdinal } }',
    prepare: async () => {
      const threadId = await newThread();
      await turn(threadId, 'codex');
      await turn(threadId, 'codex');
      return { threadId };
    },
    args: (s) => ({ input: { threadId: s.threadId, toOrdinal: 1 } }),
    refused: [
      {
        name: 'a negative ordinal',
        args: (s) => ({ input: { threadId: s.threadId, toOrdinal: -1 } }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'an ordinal past the head',
        args: (s) => ({ input: { threadId: s.threadId, toOrdinal: 99 } }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'an ordinal past Int',
        args: (s) => ({ input: { threadId: s.threadId, toOrdinal: 2 ** 31 } }),
        code: 'BAD_USER_INPUT',
      },
    ],
  },
  'Mutation.confirmProviderRollback': {
    select: '{ id status }',
    prepare: rolledBack,
    args: (s) => ({ input: { providerThreadId: s.providerThreadId } }),
  },
  'Mutation.reportProviderRollbackFailure': {
    select: '{ id status }',
    prepare: rolledBack,
    args: (s) => ({ input: { providerThreadId: s.providerThreadId, error: hostile() } }),
    // Kept for operators on the provider thread; no API field returns it.
    readBack: (s) => storedProperty('ProviderThread', s.providerThreadId, 'rollbackError'),
  },
  'Mutation.forkThread': {
    select: '{ id title }',
    prepare: async () => {
      const threadId = await newThread();
      const { run } = await turn(threadId, 'codex', { checkpoint: { ref: 'ref-1' } });
      const checkpointId = (await a.ok('query($id: ID!) { run(id: $id) { checkpoint { id } } }', { id: run.id })).run
        .checkpoint.id;
      return { threadId, checkpointId };
    },
    args: (s) => ({
      input: { sourceThreadId: s.threadId, checkpointId: s.checkpointId, id: hostile(), title: hostile() },
    }),
    refused: [
      {
        name: 'two source points',
        args: (s) => ({ input: { sourceThreadId: s.threadId, checkpointId: s.checkpointId, fromOrdinal: 1 } }),
        code: 'BAD_USER_INPUT',
      },
      {
        name: 'a negative ordinal',
        args: (s) => ({ input: { sourceThreadId: s.threadId, fromOrdinal: -1 } }),
        code: 'BAD_USER_INPUT',
      },
    ],
    readBack: (_s, data) => a.ok('query($id: ID!) { thread(id: $id) { id title } }', { id: data.forkThread.id }),
  },
  'Mutation.mergeBack': {
    select: '{ id kind }',
    prepare: async () => {
      const threadId = await newThread();
      await turn(threadId, 'codex');
      const forkThreadId = (
        await a.ok('mutation($input: ForkThreadInput!) { forkThread(input: $input) { id } }', {
          input: { sourceThreadId: threadId },
        })
      ).forkThread.id;
      await turn(forkThreadId, 'codex');
      return { forkThreadId };
    },
    args: (s) => ({ input: { forkThreadId: s.forkThreadId } }),
  },
  'Mutation.spawnSubagent': {
    select: '{ id title }',
    prepare: async () => ({ runId: (await start(await newThread(), 'codex')).run.id }),
    args: (s) => ({
      input: { parentRunId: s.runId, provider: 'claude', task: hostile(), id: hostile(), title: hostile() },
    }),
    choices: ['provider'],
    // The task reaches the subagent as its first run's context.
    readBack: async (_s, data) => {
      const { id } = data.spawnSubagent;
      const query = 'mutation($input: StartRunInput!) { startRun(input: $input) { dispatch { context } } }';
      return [
        await a.ok('query($id: ID!) { thread(id: $id) { id title } }', { id }),
        await a.ok(query, { input: { threadId: id, provider: 'claude', userMessage: 'go' } }),
      ];
    },
  },
  'Mutation.completeSubagent': {
    select: '{ id kind }',
    prepare: async () => {
      const parentRunId = (await start(await newThread(), 'codex')).run.id;
      const query = 'mutation($input: SpawnSubagentInput!) { spawnSubagent(input: $input) { id } }';
      const childThreadId = (await a.ok(query, { input: { parentRunId, provider: 'claude', task: 'look' } }))
        .spawnSubagent.id;
      await turn(childThreadId, 'claude');
      return { parentRunId, childThreadId };
    },
    args: (s) => ({ input: { childThreadId: s.childThreadId, result: hostile() } }),
    readBack: (s) => a.ok('query($id: ID!) { run(id: $id) { facts { text } } }', { id: s.parentRunId }),
  },
};

// ---------------------------------------------------------------------------------------------
// What a row's arguments hold, by their types in the schema

type LeafKind = 'reference' | 'newId' | 'text' | 'choice';
interface Leaf {
  path: (string | number)[];
  name: string;
  kind: LeafKind;
  value: string;
  required: boolean;
  description: string | undefined;
}

/** The string-like values of a call: ids naming objects, client-chosen ids, free text, choices. */
function leavesOf(field: GraphQLField<unknown, unknown>, vars: Vars, row: Row): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (
    type: GraphQLInputType,
    value: unknown,
    path: (string | number)[],
    name: string,
    description: string | undefined,
    inInput: boolean,
  ) => {
    if (value === null || value === undefined) return;
    const nullable = getNullableType(type);
    if (isListType(nullable))
      return (value as unknown[]).forEach((item, index) =>
        walk(nullable.ofType, item, [...path, index], name, description, inInput),
      );
    if (isInputObjectType(nullable)) {
      for (const child of Object.values(nullable.getFields()))
        walk(
          child.type,
          (value as Vars)[child.name],
          [...path, child.name],
          child.name,
          child.description ?? undefined,
          true,
        );
      return;
    }
    const scalar = getNamedType(type).name;
    const kind: LeafKind | null =
      scalar === 'ID'
        ? inInput && name === 'id'
          ? 'newId'
          : 'reference'
        : scalar === 'DateTime' || row.choices?.includes(name)
          ? 'choice'
          : scalar === 'String'
            ? 'text'
            : null;
    if (kind) leaves.push({ path, name, kind, value: value as string, required: isNonNullType(type), description });
  };
  for (const arg of field.args)
    walk(arg.type, vars[arg.name], [arg.name], arg.name, arg.description ?? undefined, false);
  return leaves;
}

function withValue(vars: Vars, path: (string | number)[], value: unknown): Vars {
  const copy = structuredClone(vars);
  let node: any = copy;
  for (const step of path.slice(0, -1)) node = node[step];
  node[path.at(-1)!] = value;
  return copy;
}

/** The limit the SDL documents ("At most 500 characters.", "1..20000 characters."), else past every limit. */
function lengthPastLimit(leaf: Leaf): number {
  const documented = /(?:at most |\.\.)(\d+) characters/i.exec(leaf.description ?? '');
  return (documented ? Number(documented[1]) : 100_000) + 1;
}

const UNKNOWN_IDS: [string, () => string][] = [
  ['unknown', () => uniqueId('unknown')],
  ['Cypher-looking', () => "'}) DETACH DELETE n //"],
  ['GraphQL-looking', () => '{ __schema { types { name } } }'],
  ['past every limit', () => 'x'.repeat(100_001)],
  ['with a NUL', () => 'a\u0000b'],
  ['a lone surrogate', () => '\uD800'],
];

function badStrings(leaf: Leaf): [string, string][] {
  return [
    ['past its limit', 'x'.repeat(lengthPastLimit(leaf))],
    ['with a NUL', 'nul \u0000 byte'],
    ['with a terminal escape', 'clear \u001B[2J screen'],
    ['with a lone surrogate', 'half \uD800 pair'],
    ...(leaf.required ? [['blank', '   '] as [string, string]] : []),
  ];
}

/** Variables of the wrong type, null where one is required, unknown and missing input fields. */
function wrongShapes(type: GraphQLInputType, value: unknown): [string, unknown][] {
  const nullable = getNullableType(type);
  const named = getNamedType(type).name;
  const wrong = isInputObjectType(nullable) ? 42 : named === 'Int' ? 'seven' : named === 'Boolean' ? 'yes' : true;
  const shapes: [string, unknown][] = [[`a ${typeof wrong} for ${type.toString()}`, wrong]];
  if (isNonNullType(type)) shapes.push(['null', null]);
  if (isInputObjectType(nullable)) {
    shapes.push(['an unknown input field', { ...(value as Vars), unexpected: 1 }]);
    for (const field of Object.values(nullable.getFields()).filter((child) => isNonNullType(child.type))) {
      const { [field.name]: _missing, ...rest } = value as Vars;
      shapes.push([`without ${field.name}`, rest]);
    }
  }
  return shapes;
}

// ---------------------------------------------------------------------------------------------
// Checks shared by every case

/** Both tenants' nodes, properties and edges: a refused call must leave them exactly as they were. */
async function graphs(): Promise<string> {
  const { records } = await t.driver.executeQuery(
    `MATCH (n) WHERE n.tenant IN $tenants
     OPTIONAL MATCH (n)-[r]->(m)
     WITH n, r, m ORDER BY type(r), elementId(m)
     WITH n, collect([type(r), properties(r), elementId(m)]) AS edges
     RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS properties, edges ORDER BY id`,
    { tenants: [A.tenant, B.tenant] },
    { database: inject('neo4j').database },
  );
  return JSON.stringify(records.map((record) => record.toObject()));
}

async function expectServiceUp() {
  const result = await t.gql('{ __typename }', {}, A.key);
  expect(result.status).toBe(200);
  expect(result.data).toEqual({ __typename: 'Query' });
}

/** After a refusal: both graphs as they were, and the service still answering. */
async function expectUnchanged(before: string, what: string) {
  const [after] = await Promise.all([graphs(), expectServiceUp()]);
  expect(after, `${what} changed the graph`).toBe(before);
}

function expectNoInternalError(result: GraphQLResponse, what: string) {
  for (const error of result.errors ?? [])
    expect(error.extensions?.code, `${what}: ${error.message}`).not.toBe('INTERNAL_SERVER_ERROR');
}

/** An answer with the ids it names replaced, to compare answers about different ids. */
function withoutIds(result: GraphQLResponse, ids: string[]): string {
  let text = JSON.stringify({ status: result.status, data: result.data, errors: result.errors });
  for (const id of [...ids].sort((x, y) => y.length - x.length))
    text = text.replaceAll(JSON.stringify(id).slice(1, -1), '<id>');
  return text;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

// ---------------------------------------------------------------------------------------------

const FIELDS = [...ROOT_FIELDS.keys()];

describe('hostile input, field by field', () => {
  it('has a row for every query and mutation of the schema, and for nothing else', () => {
    expect(Object.keys(ROWS).sort()).toEqual([...FIELDS].sort());
  });

  it.each(FIELDS)('%s', async (path) => {
    const row = ROWS[path];
    const field = ROOT_FIELDS.get(path);
    if (!row || !field) throw new Error(`no row for ${path}`);
    const state = (await row.prepare?.()) ?? {};
    const vars = row.args(state);
    const leaves = leavesOf(field, vars, row);
    for (const name of row.choices ?? [])
      expect(
        leaves.map((leaf) => leaf.name),
        `choice ${name}`,
      ).toContain(name);
    const missing = isNonNullType(field.type) ? 'NOT_FOUND' : null;
    let baseline = await graphs();

    /** A refused call: its code (or, for null, a null answer), nothing written, the service still up. */
    const refused = async (what: string, key: string, variables: Vars, code: string | null | undefined) => {
      const result = await call(path, row.select, variables, key);
      expectNoInternalError(result, what);
      if (code === null) {
        expect(result.errors, what).toBeUndefined();
        expect(result.data?.[field.name], what).toBeNull();
      } else if (code !== undefined) {
        expect(result.errors?.[0]?.extensions?.code, `${what}: ${JSON.stringify(result.errors)?.slice(0, 500)}`).toBe(
          code,
        );
        expect(result.data?.[field.name] ?? null, what).toBeNull();
      }
      await expectUnchanged(baseline, what);
      return result;
    };

    const references = leaves.filter((leaf) => leaf.kind === 'reference');
    const unknownAnswers: string[] = [];
    for (const leaf of references) {
      for (const [label, value] of UNKNOWN_IDS) {
        const id = value();
        const result = await refused(`${leaf.name} ${label}`, A.key, withValue(vars, leaf.path, id), missing);
        if (label === 'unknown') unknownAnswers.push(withoutIds(result, [id]));
      }
    }
    if (references.length > 0) {
      const theirs = await refused("another tenant's ids", B.key, vars, undefined);
      expect(unknownAnswers, "another tenant's ids must get the answer unknown ids get").toContain(
        withoutIds(
          theirs,
          references.map((leaf) => leaf.value),
        ),
      );
    }
    expect(
      references.length > 0 || row.isolation !== undefined,
      `${path} names no id: its row needs an isolation case`,
    ).toBe(true);
    await row.isolation?.(state);
    baseline = await graphs(); // an isolation case may write B's own objects

    for (const arg of field.args) {
      for (const [label, value] of wrongShapes(arg.type, vars[arg.name]))
        await refused(`${arg.name}: ${label}`, A.key, { ...vars, [arg.name]: value }, 'BAD_USER_INPUT');
    }
    for (const leaf of leaves.filter((leaf) => leaf.kind !== 'reference')) {
      for (const [label, value] of badStrings(leaf))
        await refused(`${leaf.path.join('.')} ${label}`, A.key, withValue(vars, leaf.path, value), 'BAD_USER_INPUT');
    }
    for (const extra of row.refused ?? [])
      await refused(extra.name, A.key, { ...vars, ...extra.args(state) }, extra.code);

    // The valid call goes through (a mutation's shows the graph comparison above can fail), and its
    // free text comes back byte-exact.
    const data = await a.ok(operation(path, row.select), vars);
    if (path.startsWith('Mutation.')) expect(await graphs(), 'the valid call wrote nothing').not.toBe(baseline);
    const texts = leaves.filter((leaf) => leaf.kind === 'text' || leaf.kind === 'newId');
    if (path.startsWith('Mutation.') && texts.length > 0) {
      expect(row.readBack, `${path} stores free text: its row needs a readBack`).toBeDefined();
      const stored = stringsIn(await row.readBack!(state, data));
      for (const leaf of texts)
        expect(
          stored.some((text) => text.includes(leaf.value)),
          `${leaf.path.join('.')} read back`,
        ).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Whole requests

async function post(body: string) {
  const response = await fetch(t.service.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${A.key}` },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: JSON.parse(text) as { data?: unknown; errors?: GraphQLResponse['errors'] },
  };
}
const query = (text: string, variables: Vars = {}) => JSON.stringify({ query: text, variables });

/** thread > lineage > root > lineage > ... > a scalar, `depth` fields deep. */
function deepQuery(depth: number): string {
  const chain = Array.from({ length: depth - 2 }, (_, index) => (index % 2 === 0 ? 'lineage' : 'root'));
  const leaf = chain.length % 2 === 0 ? 'id' : 'relationshipToParent';
  return `{ thread(id: "x") { ${chain.reduceRight((inner, name) => `${name} { ${inner} }`, leaf)} } }`;
}
const aliased = (count: number) =>
  `mutation { ${Array.from({ length: count }, (_, index) => `a${index}: createThread(input: { title: "bomb" }) { id }`).join(' ')} }`;
// Aliases of __typename do not count against the alias limit.
const directives = (count: number) =>
  `{ ${Array.from({ length: count }, (_, index) => `d${index}: __typename @include(if: true)`).join(' ')} }`;
/** `{ ...F ...F ... } fragment F on Query { __typename }`, `count` tokens: 9, 2 per spread, 1 more if odd. */
const tokens = (count: number) =>
  `{ ${'...F '.repeat(Math.floor((count - 9) / 2))}${(count - 9) % 2 ? '__typename ' : ''}} fragment F on Query { __typename }`;

/** The lineage viewer's queries, as it sends them: the heaviest the product sends. */
function viewerQueries(): string[] {
  return Object.entries(viewer)
    .filter(([name]) => name.endsWith('_QUERY'))
    .map(([, text]) => String(text));
}

interface RequestRow {
  name: string;
  body: string;
  status: number;
  /** The code of every error; none for a request that must pass. */
  code?: string;
  limit?: string;
  message?: RegExp;
}

const REQUESTS: RequestRow[] = [
  { name: `depth ${QUERY_LIMITS.depth} passes`, body: query(deepQuery(QUERY_LIMITS.depth)), status: 200 },
  {
    name: `depth ${QUERY_LIMITS.depth + 1} (deep)`,
    body: query(deepQuery(QUERY_LIMITS.depth + 1)),
    status: 400,
    code: 'GRAPHQL_VALIDATION_FAILED',
    limit: 'depth',
  },
  ...viewerQueries().map((text, index) => ({
    name: `the viewer's query ${index + 1} passes`,
    body: query(text, { id: 'x' }),
    status: 200,
  })),
  {
    name: 'pages inside pages (wide)',
    body: query(
      '{ threads(first: 100) { edges { node { runs(first: 500) { edges { node { id userMessage } } } } } } }',
    ),
    status: 400,
    code: 'GRAPHQL_VALIDATION_FAILED',
    limit: 'cost',
  },
  {
    name: `${QUERY_LIMITS.aliases} aliases pass`,
    body: query(
      `{ ${Array.from({ length: QUERY_LIMITS.aliases }, (_, index) => `p${index}: providers { id }`).join(' ')} }`,
    ),
    status: 200,
  },
  {
    name: `${QUERY_LIMITS.aliases + 1} aliased mutations (alias bomb)`,
    body: query(aliased(QUERY_LIMITS.aliases + 1)),
    status: 400,
    code: 'GRAPHQL_VALIDATION_FAILED',
    limit: 'aliases',
  },
  { name: `${QUERY_LIMITS.directives} directives pass`, body: query(directives(QUERY_LIMITS.directives)), status: 200 },
  {
    name: `${QUERY_LIMITS.directives + 1} directives`,
    body: query(directives(QUERY_LIMITS.directives + 1)),
    status: 400,
    code: 'GRAPHQL_VALIDATION_FAILED',
    limit: 'directives',
  },
  { name: `${QUERY_LIMITS.tokens} tokens pass`, body: query(tokens(QUERY_LIMITS.tokens)), status: 200 },
  {
    name: `${QUERY_LIMITS.tokens + 1} tokens`,
    body: query(tokens(QUERY_LIMITS.tokens + 1)),
    status: 400,
    code: 'GRAPHQL_PARSE_FAILED',
    message: /more th\w+ 2000 tokens/,
  },
  {
    name: 'a fragment cycle',
    body: query('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }'),
    status: 400,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'Cypher instead of GraphQL',
    body: query("'}) DETACH DELETE n //"),
    status: 400,
    code: 'GRAPHQL_PARSE_FAILED',
  },
  { name: 'an unknown field', body: query('{ nodes { id } }'), status: 400, code: 'GRAPHQL_VALIDATION_FAILED' },
  {
    name: 'batched operations',
    body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'a query that is not a string',
    body: JSON.stringify({ query: { __typename: true } }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'variables that are not an object',
    body: JSON.stringify({ query: '{ __typename }', variables: '{}' }),
    status: 400,
    code: 'BAD_REQUEST',
  },
  { name: 'no query', body: '{}', status: 400, code: 'BAD_REQUEST' },
  {
    name: 'a body that is not JSON',
    body: '{"query": "{ __typename }"',
    status: 400,
    code: 'BAD_REQUEST',
    message: /not valid JSON/,
  },
  {
    name: 'a body just under 1mb passes',
    body: query('{ __typename }', { pad: 'x'.repeat(1024 * 1024 - 100) }),
    status: 200,
  },
  {
    name: 'a body over 1mb',
    body: query('{ __typename }', { pad: 'x'.repeat(1024 * 1024) }),
    status: 413,
    code: 'BAD_REQUEST',
    message: /larger than the 1mb limit/,
  },
];

describe('hostile requests', () => {
  it.each(REQUESTS)('$name: HTTP $status $code', async (row) => {
    const before = await graphs();
    const result = await post(row.body);
    expect(result.status, result.text.slice(0, 500)).toBe(row.status);
    if (row.code) {
      expect(result.body.errors?.length, result.text.slice(0, 500)).toBeGreaterThan(0);
      expect(new Set(result.body.errors!.map((error) => error.extensions?.code))).toEqual(new Set([row.code]));
      if (row.limit) expect(result.body.errors!.map((error) => error.extensions?.limit)).toContain(row.limit);
      if (row.message) expect(result.body.errors!.map((error) => error.message).join('\n')).toMatch(row.message);
    } else {
      expect(result.body.errors, result.text.slice(0, 500)).toBeUndefined();
    }
    await expectUnchanged(before, row.name);
  });
});
