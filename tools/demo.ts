// `npm run demo`: replays, through the public GraphQL API of a running service, the design's example
// and the rest of a conversation's life (staleness, rollback, fork with merge-back, a subagent, a
// provider that resumes blank),
// printing every plan decision with its reasons and the viewer URL of every thread.
//
//   THREADLINE_URL    the service's base URL, default http://127.0.0.1:4000 (a URL ending in /graphql works too)
//   THREADLINE_TOKEN  bearer token, when the service runs with THREADLINE_API_KEYS
import { randomBytes, randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

/** The service's base URL when neither an option nor THREADLINE_URL names one. */
export const DEFAULT_URL = 'http://127.0.0.1:4000';

/** The GraphQL endpoint of a service's URL: its base URL, or the endpoint itself (ending in /graphql). */
export function graphqlEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/graphql') ? trimmed : `${trimmed}/graphql`;
}

/** Runs one GraphQL operation and returns its data; throws on any GraphQL or HTTP error. */
export type Gql = (query: string, variables?: Record<string, unknown>) => Promise<any>;

export interface DemoOptions {
  /** The service's base URL (or its /graphql endpoint); default THREADLINE_URL, else DEFAULT_URL. */
  url?: string;
  /** Bearer token; default THREADLINE_TOKEN. */
  token?: string;
  /** Where lines go; default console.log. */
  log?: (line: string) => void;
  /** Prefix of the demo's thread ids; default demo-<random>. */
  prefix?: string;
}

export interface DemoResult {
  /** Thread ids by role: design, staleness, rollback, source, fork, parent, subagent, blank. */
  threads: Record<string, string>;
  /** Viewer URL of each thread, by the same roles. */
  viewerUrls: Record<string, string>;
}

export function graphqlClient(url: string, token?: string): Gql {
  return async (query, variables = {}) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    let body: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new Error(`${url} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    if (body.errors?.length) {
      const [first] = body.errors;
      throw new Error(`GraphQL error${first!.extensions?.code ? ` ${first!.extensions.code}` : ''}: ${body.errors.map((error) => error.message).join('; ')}`);
    }
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return body.data;
  };
}

/** The viewer page of a thread, on the service at `url` (its base URL or its /graphql endpoint). */
export function viewerUrl(url: string, threadId: string): string {
  return new URL(`/lineage/${encodeURIComponent(threadId)}`, url).href;
}

const PLAN = 'decision providerThreadAction providerThread { id } handoffStrategy coveredRunOrdinals { from to } stalenessSignals reasons';
const START_RUN = `mutation($input: StartRunInput!) { startRun(input: $input) {
  run { id ordinal provider }
  plan { ${PLAN} }
  providerThread { id provider nativeThreadRef }
  handoff { id strategy coveredRunOrdinals { from to } toProviderThreadId }
  dispatch { providerThreadAction nativeThreadRef forkFromTurn fencingToken }
} }`;
const COMPLETE_RUN = `mutation($input: CompleteRunInput!) { completeRun(input: $input) { id status } }`;
const BIND = `mutation($input: BindProviderThreadInput!) { bindNativeThread(input: $input) {
  providerThread { id status nativeThreadRef resumeError }
  resumedBlank
  replanned { run { ordinal } plan { ${PLAN} } providerThread { id } handoff { id strategy coveredRunOrdinals { from to } } dispatch { providerThreadAction fencingToken } }
} }`;
const CREATE_THREAD = `mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`;
const ROLLBACK = `mutation($input: RollbackThreadInput!) { rollbackThread(input: $input) {
  thread { headOrdinal }
  rolledBackRuns { ordinal }
  supersededHandoffs { id coveredRunOrdinals { from to } }
  providerThreads { providerThread { id provider status } action nativeRollback { providerThreadId nativeThreadRef turnsToDrop toOrdinal } }
} }`;
const CONFIRM_ROLLBACK = `mutation($input: ProviderRollbackInput!) { confirmProviderRollback(input: $input) { id provider status } }`;
const FORK = `mutation($input: ForkThreadInput!) { forkThread(input: $input) { id headOrdinal lineage { sourcePoint { runOrdinal providerThreadId } } } }`;
const MERGE_BACK = `mutation($id: ID!) { mergeBack(input: { forkThreadId: $id }) { id kind status sourcePoint { runOrdinal } basePoint { runOrdinal } } }`;
const SPAWN = `mutation($input: SpawnSubagentInput!) { spawnSubagent(input: $input) { id lineage { sourcePoint { runOrdinal } } } }`;
const COMPLETE_SUBAGENT = `mutation($input: CompleteSubagentInput!) { completeSubagent(input: $input) { id kind status handoff { id strategy } } }`;

type Fact = { kind: string; text: string; key?: string; status?: string };
export interface Turn {
  provider: string;
  userMessage: string;
  assistantMessage?: string;
  facts?: Fact[];
  /** The provider's own records of the turn: completeRun derives more facts from them. */
  rawEvents?: { format: 'CODEX' | 'CLAUDE'; lines: string[] };
  checkpoint?: { ref: string; diffSummary?: string; files?: { path: string; change: string; additions?: number; deletions?: number }[] };
  cleanContext?: boolean;
}

/** A tool call as Claude Code records it: the model's tool_use, then the result the tool returned. */
interface ClaudeToolCall {
  name: string;
  input: Record<string, unknown>;
  result: string;
  toolUseResult: Record<string, unknown>;
}

const CLAUDE_PROJECT = '/home/dev/csv-import';
const CLAUDE_LINE = { isSidechain: false, userType: 'external', cwd: CLAUDE_PROJECT, sessionId: '5f0c2a9e-7b1d-4c3e-9a8f-2d6e4b1c0a97', version: '2.0.14', gitBranch: 'main' };

/**
 * One turn of a Claude Code session file, as the orchestrator reads it back after the turn: the
 * user's message, each tool call with its result, and the answer, chained by uuid.
 */
function claudeTurn(userMessage: string, calls: ClaudeToolCall[], answer: string): Turn['rawEvents'] {
  const start = Date.now();
  const records: Record<string, unknown>[] = [{ type: 'user', message: { role: 'user', content: userMessage } }];
  calls.forEach((call, index) => {
    const id = `toolu_${randomBytes(6).toString('hex')}`;
    records.push({ type: 'assistant', message: { id: `msg_${index}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id, name: call.name, input: call.input }] } });
    records.push({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: call.result }] }, toolUseResult: call.toolUseResult });
  });
  records.push({ type: 'assistant', message: { id: `msg_${calls.length}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: answer }] } });
  const uuids = records.map(() => randomUUID());
  const lines = records.map((record, index) => ({
    parentUuid: uuids[index - 1] ?? null,
    ...CLAUDE_LINE,
    ...record,
    uuid: uuids[index],
    timestamp: new Date(start + index * 1500).toISOString(),
  }));
  return { format: 'CLAUDE', lines: lines.map((line) => JSON.stringify(line)) };
}

function claudeBash(command: string, stdout: string): ClaudeToolCall {
  return { name: 'Bash', input: { command, description: `Run ${command}` }, result: stdout, toolUseResult: { stdout, stderr: '', interrupted: false, isImage: false } };
}

function claudeWrite(path: string, content: string): ClaudeToolCall {
  const filePath = `${CLAUDE_PROJECT}/${path}`;
  return { name: 'Write', input: { file_path: filePath, content }, result: `File created successfully at: ${filePath}`, toolUseResult: { type: 'create', filePath, content, structuredPatch: [] } };
}

function claudeEdit(path: string, oldString: string, newString: string): ClaudeToolCall {
  const filePath = `${CLAUDE_PROJECT}/${path}`;
  const lines = [...oldString.split('\n').map((line) => `-${line}`), ...newString.split('\n').map((line) => `+${line}`)];
  return {
    name: 'Edit',
    input: { file_path: filePath, old_string: oldString, new_string: newString },
    result: `The file ${filePath} has been updated.`,
    toolUseResult: { filePath, oldString, newString, structuredPatch: [{ oldStart: 40, oldLines: 1, newStart: 40, newLines: 1, lines }] },
  };
}

const CSV_TESTS = (count: number) => `> csv-import@0.3.0 test\n> vitest run csv\n\n ✓ test/csv.test.ts (${count} tests) 212ms\n\n      Tests  ${count} passed (${count})\n`;

/** The design's example as a small story: Codex builds a CSV import (1-5), Claude reviews it (6-8), Codex benchmarks it (9). */
export const DESIGN_EXAMPLE: Turn[] = [
  { provider: 'codex', userMessage: 'Add a CSV import command to the CLI.', facts: [{ kind: 'GOAL', text: 'Import CSV files into the store from the CLI' }, { kind: 'DECISION', text: 'Parse with a streaming reader, one row at a time' }] },
  { provider: 'codex', userMessage: 'Handle quoted fields and embedded newlines.', facts: [{ kind: 'FILE_CHANGE', text: 'src/csv/parse.ts: quoted fields, escaped quotes, embedded newlines' }], checkpoint: { ref: 'git:3f2a1c0', files: [{ path: 'src/csv/parse.ts', change: 'ADDED', additions: 140 }] } },
  { provider: 'codex', userMessage: 'Write tests for the parser.', facts: [{ kind: 'TEST', text: 'npm test -- csv: 14 passed', key: 'csv-tests', status: 'passed' }] },
  { provider: 'codex', userMessage: 'Strip a UTF-8 byte order mark.', facts: [{ kind: 'FILE_CHANGE', text: 'src/csv/parse.ts: strip a leading BOM' }, { kind: 'TEST', text: 'npm test -- csv: 15 passed', key: 'csv-tests', status: 'passed' }] },
  { provider: 'codex', userMessage: 'Wire it into `threadline import`.', facts: [{ kind: 'COMMAND', text: 'threadline import data/sample.csv: 1,204 rows', key: 'import-sample', status: 'ok' }, { kind: 'QUESTION', text: 'Should rows with missing columns be skipped or rejected?', key: 'missing-columns', status: 'open' }] },
  // Claude's turns complete with Claude Code's own records of them: the files and tests come from those.
  {
    provider: 'claude',
    userMessage: 'Review the import for edge cases.',
    facts: [{ kind: 'DECISION', text: 'Reject rows whose column count differs from the header, with the line number' }, { kind: 'QUESTION', text: 'Should rows with missing columns be skipped or rejected?', key: 'missing-columns', status: 'resolved' }],
    rawEvents: claudeTurn('Review the import for edge cases.', [claudeBash('npm test -- csv', CSV_TESTS(15))], 'Rows with a different column count should be rejected, with their line number.'),
  },
  {
    provider: 'claude',
    userMessage: 'Report errors with line numbers.',
    rawEvents: claudeTurn(
      'Report errors with line numbers.',
      [
        claudeWrite('src/csv/errors.ts', 'export class ImportError extends Error {\n  constructor(readonly line: number, readonly column: number, message: string) {\n    super(`line ${line}, column ${column}: ${message}`);\n  }\n}\n'),
        claudeEdit('src/csv/parse.ts', "      throw new Error('wrong column count');", '      throw new ImportError(line, column, `expected ${header.length} columns`);'),
        claudeBash('npm test -- csv', CSV_TESTS(19)),
      ],
      'Import errors are ImportError values with the line and column.',
    ),
  },
  {
    provider: 'claude',
    userMessage: 'Document the command.',
    rawEvents: claudeTurn('Document the command.', [claudeWrite('docs/import.md', '# threadline import\n\nImports CSV files into the store.\n\n## Errors\n\nA row with the wrong column count stops the import with its line.\n')], 'docs/import.md covers usage, errors and limits.'),
    checkpoint: { ref: 'git:9be41d7', files: [{ path: 'docs/import.md', change: 'ADDED', additions: 7 }] },
  },
  { provider: 'codex', userMessage: 'Benchmark the import on a 1 GB file.', facts: [{ kind: 'COMMAND', text: 'npm run bench -- import: 1 GB in 41 s, 180 MB peak', key: 'bench-import', status: 'ok' }] },
];

function describeRange(range: { from: number; to: number } | null | undefined): string {
  return range ? `${range.from}-${range.to}` : '';
}

/** The demo's printer: one line per plan decision (consecutive identical ones grouped), reasons below. */
export class Narrator {
  private pending: { first: number; last: number; provider: string; head: string; reasons: string[] } | null = null;

  constructor(private readonly log: (line: string) => void) {}

  line(text: string): void {
    this.flush();
    this.log(text);
  }

  /** A run's plan; `handoff` is the run's context when the plan itself chose none (a merge-back, a subagent's task). */
  decision(ordinal: number, provider: string, plan: any, handoff?: any): void {
    const details = [plan.providerThreadAction, plan.handoffStrategy, describeRange(plan.coveredRunOrdinals)].filter(Boolean).join(' ');
    const signals = plan.stalenessSignals.length ? ` [${plan.stalenessSignals.join(', ')}]` : '';
    const extra = handoff && !plan.handoffStrategy ? `, with a ${handoff.strategy} handoff${handoff.coveredRunOrdinals.to > 0 ? ` of runs ${describeRange(handoff.coveredRunOrdinals)}` : ''}` : '';
    const head = `${plan.decision} (${details})${signals}${extra}`;
    const reasons = plan.reasons as string[];
    const same = this.pending && this.pending.provider === provider && this.pending.head === head && this.pending.last === ordinal - 1 && this.pending.reasons.join('\n') === reasons.join('\n');
    if (same) {
      this.pending!.last = ordinal;
      return;
    }
    this.flush();
    this.pending = { first: ordinal, last: ordinal, provider, head, reasons };
  }

  flush(): void {
    const entry = this.pending;
    if (!entry) return;
    this.pending = null;
    const runs = entry.first === entry.last ? `#${entry.first}` : `#${entry.first}-${entry.last}`;
    this.log(`  ${runs} ${entry.provider}: ${entry.head}`);
    for (const reason of entry.reasons) this.log(`      - ${reason}`);
  }
}

/** An orchestrator's turn: startRun, bind a native id when a provider thread is new, completeRun. */
export async function playTurn(gql: Gql, threadId: string, turn: Turn, narrator?: Narrator) {
  const started = (await gql(START_RUN, { input: { threadId, provider: turn.provider, userMessage: turn.userMessage, ...(turn.cleanContext ? { cleanContext: true } : {}) } })).startRun;
  narrator?.decision(started.run.ordinal, turn.provider, started.plan, started.handoff);
  if (!started.providerThread.nativeThreadRef) {
    await gql(BIND, { input: { providerThreadId: started.providerThread.id, nativeThreadRef: `${turn.provider}-native-${randomBytes(4).toString('hex')}`, fencingToken: started.dispatch.fencingToken } });
  }
  return started;
}

/** Ends the run; `fencingToken` is the dispatch's the completion answers. */
export async function finishTurn(gql: Gql, runId: string, turn: Turn, fencingToken?: string) {
  await gql(COMPLETE_RUN, {
    input: {
      runId,
      ...(fencingToken ? { fencingToken } : {}),
      assistantMessage: turn.assistantMessage ?? `Done: ${turn.userMessage}`,
      ...(turn.facts ? { facts: turn.facts } : {}),
      ...(turn.rawEvents ? { rawEvents: turn.rawEvents } : {}),
      ...(turn.checkpoint ? { checkpoint: turn.checkpoint } : {}),
    },
  });
}

export async function playTurns(gql: Gql, threadId: string, turns: Turn[], narrator?: Narrator) {
  const started = [];
  for (const turn of turns) {
    const run = await playTurn(gql, threadId, turn, narrator);
    await finishTurn(gql, run.run.id, turn, run.dispatch.fencingToken);
    started.push(run);
  }
  return started;
}

async function createThread(gql: Gql, id: string, title: string): Promise<string> {
  return (await gql(CREATE_THREAD, { input: { id, title } })).createThread.id;
}

/** The design's example on a new thread: Codex 1-5 on C1, Claude 6-8 on L1 (H1 over 1-5), Codex 9 back on C1 (H2 over 6-8). */
export async function seedDesignExample(gql: Gql, threadId: string, narrator?: Narrator) {
  await createThread(gql, threadId, 'Design example: CSV import across Codex and Claude');
  const runs = await playTurns(gql, threadId, DESIGN_EXAMPLE, narrator);
  narrator?.flush();
  return { threadId, c1: runs[0]!.providerThread.id as string, l1: runs[5]!.providerThread.id as string, h1: runs[5]!.handoff.id as string, h2: runs[8]!.handoff.id as string };
}

const filler = (provider: string, n: number, what: string): Turn[] =>
  Array.from({ length: n }, (_, i) => ({ provider, userMessage: `${what} ${i + 1}`, facts: [{ kind: 'NOTE', text: `${what} ${i + 1} done` }] }));

export async function main(options: DemoOptions = {}): Promise<DemoResult> {
  const url = graphqlEndpoint(options.url ?? (process.env.THREADLINE_URL || DEFAULT_URL));
  const token = options.token ?? (process.env.THREADLINE_TOKEN || undefined);
  const log = options.log ?? ((line: string) => console.log(line));
  const prefix = options.prefix ?? `demo-${randomBytes(3).toString('hex')}`;
  const gql = graphqlClient(url, token);
  const say = new Narrator(log);
  const threads: Record<string, string> = {};
  const viewerUrls: Record<string, string> = {};
  const show = (role: string, threadId: string) => {
    threads[role] = threadId;
    viewerUrls[role] = viewerUrl(url, threadId);
    say.line(`  viewer: ${viewerUrls[role]}`);
  };

  say.line(`Threadline demo against ${url}${token ? ' (with a bearer token: add ?token=<THREADLINE_TOKEN> to the viewer URLs)' : ''}`);

  say.line('');
  say.line('1. The design example: Codex runs 1-5, Claude 6-8, back to Codex at 9');
  const design = await seedDesignExample(gql, `${prefix}-design`, say);
  show('design', design.threadId);

  say.line('');
  say.line('2. Staleness: Codex runs once, Claude 21 times, then Codex again; then a clean context');
  const stale = await createThread(gql, `${prefix}-staleness`, 'Staleness: too many runs elsewhere, then a clean context');
  await playTurns(gql, stale, [{ provider: 'codex', userMessage: 'Sketch the data model.', facts: [{ kind: 'GOAL', text: 'A data model for invoices' }] }, ...filler('claude', 21, 'Refine the model, step')], say);
  await playTurns(gql, stale, [{ provider: 'codex', userMessage: 'Generate the migrations.' }, { provider: 'codex', userMessage: 'Start over with a fresh context.', cleanContext: true }], say);
  show('staleness', stale);

  say.line('');
  say.line('3. Rollback: Codex 1-3, Claude 4-5, Codex 6, then roll back to 3');
  const rolled = await createThread(gql, `${prefix}-rollback`, 'Rollback to run 3');
  await playTurns(gql, rolled, [...filler('codex', 3, 'Build the feature, step'), ...filler('claude', 2, 'Try an alternative, step'), { provider: 'codex', userMessage: 'Merge both ideas.' }], say);
  const rollback = (await gql(ROLLBACK, { input: { threadId: rolled, toOrdinal: 3 } })).rollbackThread;
  say.line(`  rollbackThread to 3: head ${rollback.thread.headOrdinal}, runs ${rollback.rolledBackRuns.map((run: any) => run.ordinal).join(', ')} rolled back, ${rollback.supersededHandoffs.length} handoff(s) withdrawn (${rollback.supersededHandoffs.map((handoff: any) => describeRange(handoff.coveredRunOrdinals)).join(', ')})`);
  for (const entry of rollback.providerThreads) {
    const native = entry.nativeRollback;
    say.line(`    ${entry.providerThread.provider} ${entry.providerThread.id}: ${entry.action}${native ? ` (drop ${native.turnsToDrop} native turn(s) of ${native.nativeThreadRef}, back to run ${native.toOrdinal})` : ''}`);
    if (entry.action === 'ROLLED_BACK') {
      const confirmed = (await gql(CONFIRM_ROLLBACK, { input: { providerThreadId: entry.providerThread.id } })).confirmProviderRollback;
      say.line(`    confirmProviderRollback ${confirmed.id}: ${confirmed.status}`);
    }
  }
  await playTurns(gql, rolled, [{ provider: 'claude', userMessage: 'Try the alternative again, from run 3.' }, { provider: 'codex', userMessage: 'Finish the feature.' }], say);
  show('rollback', rolled);

  say.line('');
  say.line('4. Fork and merge-back: fork after run 2, work on the fork, merge it back into the source');
  const source = await createThread(gql, `${prefix}-source`, 'Main line');
  await playTurns(gql, source, [{ provider: 'codex', userMessage: 'Add a search endpoint.', facts: [{ kind: 'GOAL', text: 'Search by name prefix' }] }, { provider: 'codex', userMessage: 'Add paging.' }], say);
  const fork = (await gql(FORK, { input: { sourceThreadId: source, fromOrdinal: 2, id: `${prefix}-fork`, title: 'Experiment: a trie index' } })).forkThread;
  say.line(`  forkThread from run ${fork.lineage.sourcePoint.runOrdinal}: ${fork.id} (no provider chosen until its first run)`);
  const experiment: Turn = { provider: 'codex', userMessage: 'Try a trie for prefix lookups.', facts: [{ kind: 'DECISION', text: 'Use a trie for prefix lookups' }, { kind: 'COMMAND', text: 'npm run bench -- search: p99 4 ms (was 31 ms)', key: 'bench-search', status: 'ok' }, { kind: 'QUESTION', text: 'Is 40 MB more memory acceptable?', key: 'memory', status: 'open' }] };
  const forkRun = await playTurn(gql, fork.id, experiment, say);
  await finishTurn(gql, forkRun.run.id, experiment);
  const merge = (await gql(MERGE_BACK, { id: fork.id })).mergeBack;
  say.line(`  mergeBack: ${merge.kind} ${merge.status}, fork runs ${merge.basePoint.runOrdinal + 1}-${merge.sourcePoint.runOrdinal} offered to the source`);
  const takeIn: Turn = { provider: 'codex', userMessage: 'Adopt the trie from the experiment.' };
  const taken = await playTurn(gql, source, takeIn, say);
  await finishTurn(gql, taken.run.id, takeIn);
  show('source', source);
  show('fork', fork.id);

  say.line('');
  say.line('5. Subagent: a Claude subagent works for a running Codex run, and reports back');
  const parent = await createThread(gql, `${prefix}-parent`, 'Parent with a subagent');
  await playTurns(gql, parent, [{ provider: 'codex', userMessage: 'Rename parse() to parseRecord().' }], say);
  const parentTurn: Turn = { provider: 'codex', userMessage: 'Update every caller.', facts: [{ kind: 'DECISION', text: 'Rename the 3 callers in one commit' }] };
  const running = await playTurn(gql, parent, parentTurn, say);
  const child = (await gql(SPAWN, { input: { parentRunId: running.run.id, provider: 'claude', task: 'Find every caller of parse() and list them.', id: `${prefix}-subagent`, title: 'Subagent: find callers' } })).spawnSubagent;
  say.line(`  spawnSubagent during run ${child.lineage.sourcePoint.runOrdinal}: ${child.id}`);
  const childTurn: Turn = { provider: 'claude', userMessage: 'Find every caller of parse().', facts: [{ kind: 'NOTE', text: 'parse() has 3 callers: a.ts, b.ts, c.ts' }] };
  await playTurns(gql, child.id, [childTurn], say);
  const result = (await gql(COMPLETE_SUBAGENT, { input: { childThreadId: child.id, result: 'parse() has 3 callers: src/a.ts, src/b.ts, src/c.ts' } })).completeSubagent;
  say.line(`  completeSubagent: ${result.kind} ${result.status}, returned to run ${child.lineage.sourcePoint.runOrdinal} as ${result.handoff?.strategy}`);
  await finishTurn(gql, running.run.id, parentTurn);
  await playTurns(gql, parent, [{ provider: 'claude', userMessage: 'Review the rename.' }], say);
  show('parent', parent);
  show('subagent', child.id);

  say.line('');
  say.line('6. A resumed blank: back on Codex at run 4, the provider starts a fresh session instead of resuming');
  const blank = await createThread(gql, `${prefix}-blank`, 'Resumed blank: a fresh session where a resume was asked');
  await playTurns(gql, blank, [...filler('codex', 2, 'Write the exporter, step'), { provider: 'claude', userMessage: 'Review the exporter.' }], say);
  const back: Turn = { provider: 'codex', userMessage: 'Apply the review comments.' };
  const resuming = await playTurn(gql, blank, back, say);
  const fresh = `codex-native-${randomBytes(4).toString('hex')}`;
  const bound = (await gql(BIND, { input: { providerThreadId: resuming.providerThread.id, nativeThreadRef: fresh, fencingToken: resuming.dispatch.fencingToken } })).bindNativeThread;
  say.line(`  bindNativeThread ${fresh} where ${resuming.dispatch.nativeThreadRef} was to be resumed: resumedBlank ${bound.resumedBlank}, ${bound.providerThread.id} ${bound.providerThread.status}`);
  const { replanned } = bound;
  say.decision(replanned.run.ordinal, 'codex', replanned.plan, replanned.handoff);
  try {
    await finishTurn(gql, resuming.run.id, back, resuming.dispatch.fencingToken);
    say.line('  the blank session\'s late completion was recorded (it should not have been)');
  } catch (error) {
    say.line(`  the blank session's late completion: ${(error as Error).message}`);
  }
  await finishTurn(gql, resuming.run.id, back, replanned.dispatch.fencingToken);
  show('blank', blank);

  say.flush();
  return { threads, viewerUrls };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  main().catch((error: unknown) => {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === 'ECONNREFUSED') {
      console.error(`No Threadline service answers at ${graphqlEndpoint(process.env.THREADLINE_URL || DEFAULT_URL)}: start one with \`npm start\` (or set THREADLINE_URL to its base URL).`);
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    process.exit(1);
  });
}
