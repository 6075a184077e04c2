// `threadline demo`: replays, through the public GraphQL API of a running service (with the typed client,
// client/, and its runTurn), the design's example
// and the rest of a conversation's life (staleness, rollback, fork with merge-back, a subagent, a
// provider that resumes blank),
// printing every plan decision with its reasons and the viewer URL of every thread.
//
//   THREADLINE_URL    the service's base URL, default http://127.0.0.1:4000 (a URL ending in /graphql works too)
//   THREADLINE_TOKEN  bearer token, when the service runs with THREADLINE_API_KEYS
import { randomBytes, randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import {
  CompleteRunDocument,
  CompleteSubagentDocument,
  ConfirmProviderRollbackDocument,
  createThreadlineClient,
  CreateThreadDocument,
  ForkThreadDocument,
  graphqlEndpoint,
  MergeBackDocument,
  RollbackThreadDocument,
  runTurn,
  SpawnSubagentDocument,
  ThreadlineClientError,
  type Agent,
  type AgentCall,
  type CompleteRunInput,
  type PlanFragment,
  type StartedRunFragment,
  type ThreadlineClient,
  type TurnResult,
} from '../client/index.js';

/** The service's base URL when neither an option nor THREADLINE_URL names one. */
export const DEFAULT_URL = 'http://127.0.0.1:4000';

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

/** The viewer page of a thread, on the service at `url` (its base URL or its /graphql endpoint). */
export function viewerUrl(url: string, threadId: string): string {
  return new URL(`/lineage/${encodeURIComponent(threadId)}`, url).href;
}

export interface Turn extends Pick<CompleteRunInput, 'assistantMessage' | 'facts' | 'checkpoint'> {
  provider: string;
  userMessage: string;
  /** The provider's own records of the turn: completeRun derives more facts from them. */
  rawEvents?: NonNullable<CompleteRunInput['rawEvents']>;
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
const CLAUDE_LINE = {
  isSidechain: false,
  userType: 'external',
  cwd: CLAUDE_PROJECT,
  sessionId: '5f0c2a9e-7b1d-4c3e-9a8f-2d6e4b1c0a97',
  version: '2.0.14',
  gitBranch: 'main',
};

/**
 * One turn of a Claude Code session file, as the orchestrator reads it back after the turn: the
 * user's message, each tool call with its result, and the answer, chained by uuid.
 */
function claudeTurn(userMessage: string, calls: ClaudeToolCall[], answer: string): Turn['rawEvents'] {
  const start = Date.now();
  const records: Record<string, unknown>[] = [{ type: 'user', message: { role: 'user', content: userMessage } }];
  calls.forEach((call, index) => {
    const id = `toolu_${randomBytes(6).toString('hex')}`;
    records.push({
      type: 'assistant',
      message: {
        id: `msg_${index}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'tool_use', id, name: call.name, input: call.input }],
      },
    });
    records.push({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: call.result }] },
      toolUseResult: call.toolUseResult,
    });
  });
  records.push({
    type: 'assistant',
    message: {
      id: `msg_${calls.length}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: answer }],
    },
  });
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
  return {
    name: 'Bash',
    input: { command, description: `Run ${command}` },
    result: stdout,
    toolUseResult: { stdout, stderr: '', interrupted: false, isImage: false },
  };
}

function claudeWrite(path: string, content: string): ClaudeToolCall {
  const filePath = `${CLAUDE_PROJECT}/${path}`;
  return {
    name: 'Write',
    input: { file_path: filePath, content },
    result: `File created successfully at: ${filePath}`,
    toolUseResult: { type: 'create', filePath, content, structuredPatch: [] },
  };
}

function claudeEdit(path: string, oldString: string, newString: string): ClaudeToolCall {
  const filePath = `${CLAUDE_PROJECT}/${path}`;
  const lines = [
    ...oldString.split('\n').map((line) => `-${line}`),
    ...newString.split('\n').map((line) => `+${line}`),
  ];
  return {
    name: 'Edit',
    input: { file_path: filePath, old_string: oldString, new_string: newString },
    result: `The file ${filePath} has been updated.`,
    toolUseResult: {
      filePath,
      oldString,
      newString,
      structuredPatch: [{ oldStart: 40, oldLines: 1, newStart: 40, newLines: 1, lines }],
    },
  };
}

const CSV_TESTS = (count: number) =>
  `> csv-import@0.3.0 test\n> vitest run csv\n\n ✓ test/csv.test.ts (${count} tests) 212ms\n\n      Tests  ${count} passed (${count})\n`;

/** The design's example as a small story: Codex builds a CSV import (1-5), Claude reviews it (6-8), Codex benchmarks it (9). */
export const DESIGN_EXAMPLE: Turn[] = [
  {
    provider: 'codex',
    userMessage: 'Add a CSV import command to the CLI.',
    facts: [
      { kind: 'GOAL', text: 'Import CSV files into the store from the CLI' },
      { kind: 'DECISION', text: 'Parse with a streaming reader, one row at a time' },
    ],
  },
  {
    provider: 'codex',
    userMessage: 'Handle quoted fields and embedded newlines.',
    facts: [{ kind: 'FILE_CHANGE', text: 'src/csv/parse.ts: quoted fields, escaped quotes, embedded newlines' }],
    checkpoint: { ref: 'git:3f2a1c0', files: [{ path: 'src/csv/parse.ts', change: 'ADDED', additions: 140 }] },
  },
  {
    provider: 'codex',
    userMessage: 'Write tests for the parser.',
    facts: [{ kind: 'TEST', text: 'npm test -- csv: 14 passed', key: 'csv-tests', status: 'passed' }],
  },
  {
    provider: 'codex',
    userMessage: 'Strip a UTF-8 byte order mark.',
    facts: [
      { kind: 'FILE_CHANGE', text: 'src/csv/parse.ts: strip a leading BOM' },
      { kind: 'TEST', text: 'npm test -- csv: 15 passed', key: 'csv-tests', status: 'passed' },
    ],
  },
  {
    provider: 'codex',
    userMessage: 'Wire it into `threadline import`.',
    facts: [
      { kind: 'COMMAND', text: 'threadline import data/sample.csv: 1,204 rows', key: 'import-sample', status: 'ok' },
      {
        kind: 'QUESTION',
        text: 'Should rows with missing columns be skipped or rejected?',
        key: 'missing-columns',
        status: 'open',
      },
    ],
  },
  // Claude's turns complete with Claude Code's own records of them: the files and tests come from those.
  {
    provider: 'claude',
    userMessage: 'Review the import for edge cases.',
    facts: [
      { kind: 'DECISION', text: 'Reject rows whose column count differs from the header, with the line number' },
      {
        kind: 'QUESTION',
        text: 'Should rows with missing columns be skipped or rejected?',
        key: 'missing-columns',
        status: 'resolved',
      },
    ],
    rawEvents: claudeTurn(
      'Review the import for edge cases.',
      [claudeBash('npm test -- csv', CSV_TESTS(15))],
      'Rows with a different column count should be rejected, with their line number.',
    ),
  },
  {
    provider: 'claude',
    userMessage: 'Report errors with line numbers.',
    rawEvents: claudeTurn(
      'Report errors with line numbers.',
      [
        claudeWrite(
          'src/csv/errors.ts',
          'export class ImportError extends Error {\n  constructor(readonly line: number, readonly column: number, message: string) {\n    super(`line ${line}, column ${column}: ${message}`);\n  }\n}\n',
        ),
        claudeEdit(
          'src/csv/parse.ts',
          "      throw new Error('wrong column count');",
          '      throw new ImportError(line, column, `expected ${header.length} columns`);',
        ),
        claudeBash('npm test -- csv', CSV_TESTS(19)),
      ],
      'Import errors are ImportError values with the line and column.',
    ),
  },
  {
    provider: 'claude',
    userMessage: 'Document the command.',
    rawEvents: claudeTurn(
      'Document the command.',
      [
        claudeWrite(
          'docs/import.md',
          '# threadline import\n\nImports CSV files into the store.\n\n## Errors\n\nA row with the wrong column count stops the import with its line.\n',
        ),
      ],
      'docs/import.md covers usage, errors and limits.',
    ),
    checkpoint: { ref: 'git:9be41d7', files: [{ path: 'docs/import.md', change: 'ADDED', additions: 7 }] },
  },
  {
    provider: 'codex',
    userMessage: 'Benchmark the import on a 1 GB file.',
    facts: [
      {
        kind: 'COMMAND',
        text: 'npm run bench -- import: 1 GB in 41 s, 180 MB peak',
        key: 'bench-import',
        status: 'ok',
      },
    ],
  },
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
  decision(ordinal: number, provider: string, plan: PlanFragment, handoff?: StartedRunFragment['handoff']): void {
    const details = [plan.providerThreadAction, plan.handoffStrategy, describeRange(plan.coveredRunOrdinals)]
      .filter(Boolean)
      .join(' ');
    const signals = plan.stalenessSignals.length ? ` [${plan.stalenessSignals.join(', ')}]` : '';
    const extra =
      handoff && !plan.handoffStrategy
        ? `, with a ${handoff.strategy} handoff${handoff.coveredRunOrdinals.to > 0 ? ` of runs ${describeRange(handoff.coveredRunOrdinals)}` : ''}`
        : '';
    const head = `${plan.decision} (${details})${signals}${extra}`;
    const { reasons } = plan;
    const same =
      this.pending &&
      this.pending.provider === provider &&
      this.pending.head === head &&
      this.pending.last === ordinal - 1 &&
      this.pending.reasons.join('\n') === reasons.join('\n');
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

/** The demo's provider: it resumes the native thread it is asked to, or starts a session with a new native id. */
function nativeThreadOf({ dispatch, run }: AgentCall): string {
  const resume = dispatch.providerThreadAction === 'RESUME' || dispatch.providerThreadAction === 'REUSE';
  return resume && dispatch.nativeThreadRef
    ? dispatch.nativeThreadRef
    : `${run.provider}-native-${randomBytes(4).toString('hex')}`;
}

/** What the turn produced, as completeRun takes it. */
function outcomeOf(turn: Turn): Omit<CompleteRunInput, 'runId'> {
  return {
    assistantMessage: turn.assistantMessage ?? `Done: ${turn.userMessage}`,
    ...(turn.facts ? { facts: turn.facts } : {}),
    ...(turn.rawEvents ? { rawEvents: turn.rawEvents } : {}),
    ...(turn.checkpoint ? { checkpoint: turn.checkpoint } : {}),
  };
}

function startInput(threadId: string, turn: Turn) {
  return {
    threadId,
    provider: turn.provider,
    userMessage: turn.userMessage,
    ...(turn.cleanContext ? { cleanContext: true } : {}),
  };
}

/**
 * An orchestrator's turn (runTurn: startRun, the provider's turn, bindNativeThread, completeRun),
 * printing its plan; `during` is what happens while the provider works (a subagent's errand).
 */
export async function playTurn(
  client: ThreadlineClient,
  threadId: string,
  turn: Turn,
  narrator?: Narrator,
  during?: (call: AgentCall) => Promise<void>,
): Promise<TurnResult> {
  return runTurn(client, startInput(threadId, turn), async (call) => {
    narrator?.decision(call.run.ordinal, call.run.provider, call.plan, call.handoff);
    await during?.(call);
    return { nativeThreadRef: nativeThreadOf(call), ...outcomeOf(turn) };
  });
}

export async function playTurns(
  client: ThreadlineClient,
  threadId: string,
  turns: Turn[],
  narrator?: Narrator,
): Promise<TurnResult[]> {
  const played = [];
  for (const turn of turns) played.push(await playTurn(client, threadId, turn, narrator));
  return played;
}

async function createThread(client: ThreadlineClient, id: string, title: string): Promise<string> {
  return (await client.request(CreateThreadDocument, { input: { id, title } })).createThread.id;
}

/** The design's example on a new thread: Codex 1-5 on C1, Claude 6-8 on L1 (H1 over 1-5), Codex 9 back on C1 (H2 over 6-8). */
export async function seedDesignExample(client: ThreadlineClient, threadId: string, narrator?: Narrator) {
  await createThread(client, threadId, 'Design example: CSV import across Codex and Claude');
  const runs = (await playTurns(client, threadId, DESIGN_EXAMPLE, narrator)).map((turn) => turn.started);
  narrator?.flush();
  return {
    threadId,
    c1: runs[0]!.providerThread.id,
    l1: runs[5]!.providerThread.id,
    h1: runs[5]!.handoff!.id,
    h2: runs[8]!.handoff!.id,
  };
}

const filler = (provider: string, n: number, what: string): Turn[] =>
  Array.from({ length: n }, (_, i) => ({
    provider,
    userMessage: `${what} ${i + 1}`,
    facts: [{ kind: 'NOTE', text: `${what} ${i + 1} done` }],
  }));

export async function main(options: DemoOptions = {}): Promise<DemoResult> {
  const token = options.token ?? (process.env.THREADLINE_TOKEN || undefined);
  const client = createThreadlineClient({
    url: options.url ?? (process.env.THREADLINE_URL || DEFAULT_URL),
    apiKey: token,
  });
  const url = client.endpoint;
  const log = options.log ?? ((line: string) => console.log(line));
  const prefix = options.prefix ?? `demo-${randomBytes(3).toString('hex')}`;
  const say = new Narrator(log);
  const threads: Record<string, string> = {};
  const viewerUrls: Record<string, string> = {};
  const show = (role: string, threadId: string) => {
    threads[role] = threadId;
    viewerUrls[role] = viewerUrl(url, threadId);
    say.line(`  viewer: ${viewerUrls[role]}`);
  };

  say.line(
    `Threadline demo against ${url}${token ? ' (with a bearer token: add ?token=<THREADLINE_TOKEN> to the viewer URLs)' : ''}`,
  );

  say.line('');
  say.line('1. The design example: Codex runs 1-5, Claude 6-8, back to Codex at 9');
  const design = await seedDesignExample(client, `${prefix}-design`, say);
  show('design', design.threadId);

  say.line('');
  say.line('2. Staleness: Codex runs once, Claude 21 times, then Codex again; then a clean context');
  const stale = await createThread(
    client,
    `${prefix}-staleness`,
    'Staleness: too many runs elsewhere, then a clean context',
  );
  await playTurns(
    client,
    stale,
    [
      {
        provider: 'codex',
        userMessage: 'Sketch the data model.',
        facts: [{ kind: 'GOAL', text: 'A data model for invoices' }],
      },
      ...filler('claude', 21, 'Refine the model, step'),
    ],
    say,
  );
  await playTurns(
    client,
    stale,
    [
      { provider: 'codex', userMessage: 'Generate the migrations.' },
      { provider: 'codex', userMessage: 'Start over with a fresh context.', cleanContext: true },
    ],
    say,
  );
  show('staleness', stale);

  say.line('');
  say.line('3. Rollback: Codex 1-3, Claude 4-5, Codex 6, then roll back to 3');
  const rolled = await createThread(client, `${prefix}-rollback`, 'Rollback to run 3');
  await playTurns(
    client,
    rolled,
    [
      ...filler('codex', 3, 'Build the feature, step'),
      ...filler('claude', 2, 'Try an alternative, step'),
      { provider: 'codex', userMessage: 'Merge both ideas.' },
    ],
    say,
  );
  const rollback = (await client.request(RollbackThreadDocument, { input: { threadId: rolled, toOrdinal: 3 } }))
    .rollbackThread;
  say.line(
    `  rollbackThread to 3: head ${rollback.thread.headOrdinal}, runs ${rollback.rolledBackRuns.map((run) => run.ordinal).join(', ')} rolled back, ${rollback.supersededHandoffs.length} handoff(s) withdrawn (${rollback.supersededHandoffs.map((handoff) => describeRange(handoff.coveredRunOrdinals)).join(', ')})`,
  );
  for (const entry of rollback.providerThreads) {
    const native = entry.nativeRollback;
    say.line(
      `    ${entry.providerThread.provider} ${entry.providerThread.id}: ${entry.action}${native ? ` (drop ${native.turnsToDrop} native turn(s) of ${native.nativeThreadRef}, back to run ${native.toOrdinal})` : ''}`,
    );
    if (entry.action === 'ROLLED_BACK') {
      const confirmed = (
        await client.request(ConfirmProviderRollbackDocument, { input: { providerThreadId: entry.providerThread.id } })
      ).confirmProviderRollback;
      say.line(`    confirmProviderRollback ${confirmed.id}: ${confirmed.status}`);
    }
  }
  await playTurns(
    client,
    rolled,
    [
      { provider: 'claude', userMessage: 'Try the alternative again, from run 3.' },
      { provider: 'codex', userMessage: 'Finish the feature.' },
    ],
    say,
  );
  show('rollback', rolled);

  say.line('');
  say.line('4. Fork and merge-back: fork after run 2, work on the fork, merge it back into the source');
  const source = await createThread(client, `${prefix}-source`, 'Main line');
  await playTurns(
    client,
    source,
    [
      {
        provider: 'codex',
        userMessage: 'Add a search endpoint.',
        facts: [{ kind: 'GOAL', text: 'Search by name prefix' }],
      },
      { provider: 'codex', userMessage: 'Add paging.' },
    ],
    say,
  );
  const fork = (
    await client.request(ForkThreadDocument, {
      input: { sourceThreadId: source, fromOrdinal: 2, id: `${prefix}-fork`, title: 'Experiment: a trie index' },
    })
  ).forkThread;
  say.line(
    `  forkThread from run ${fork.lineage.sourcePoint?.runOrdinal}: ${fork.id} (no provider chosen until its first run)`,
  );
  const experiment: Turn = {
    provider: 'codex',
    userMessage: 'Try a trie for prefix lookups.',
    facts: [
      { kind: 'DECISION', text: 'Use a trie for prefix lookups' },
      { kind: 'COMMAND', text: 'npm run bench -- search: p99 4 ms (was 31 ms)', key: 'bench-search', status: 'ok' },
      { kind: 'QUESTION', text: 'Is 40 MB more memory acceptable?', key: 'memory', status: 'open' },
    ],
  };
  await playTurn(client, fork.id, experiment, say);
  const merge = (await client.request(MergeBackDocument, { input: { forkThreadId: fork.id } })).mergeBack;
  say.line(
    `  mergeBack: ${merge.kind} ${merge.status}, fork runs ${(merge.basePoint?.runOrdinal ?? 0) + 1}-${merge.sourcePoint.runOrdinal} offered to the source`,
  );
  await playTurn(client, source, { provider: 'codex', userMessage: 'Adopt the trie from the experiment.' }, say);
  show('source', source);
  show('fork', fork.id);

  say.line('');
  say.line('5. Subagent: a Claude subagent works for a running Codex run, and reports back');
  const parent = await createThread(client, `${prefix}-parent`, 'Parent with a subagent');
  await playTurns(client, parent, [{ provider: 'codex', userMessage: 'Rename parse() to parseRecord().' }], say);
  const parentTurn: Turn = {
    provider: 'codex',
    userMessage: 'Update every caller.',
    facts: [{ kind: 'DECISION', text: 'Rename the 3 callers in one commit' }],
  };
  const childId = `${prefix}-subagent`;
  await playTurn(client, parent, parentTurn, say, async (running) => {
    const child = (
      await client.request(SpawnSubagentDocument, {
        input: {
          parentRunId: running.run.id,
          provider: 'claude',
          task: 'Find every caller of parse() and list them.',
          id: childId,
          title: 'Subagent: find callers',
        },
      })
    ).spawnSubagent;
    say.line(`  spawnSubagent during run ${child.lineage.sourcePoint?.runOrdinal}: ${child.id}`);
    await playTurn(
      client,
      child.id,
      {
        provider: 'claude',
        userMessage: 'Find every caller of parse().',
        facts: [{ kind: 'NOTE', text: 'parse() has 3 callers: a.ts, b.ts, c.ts' }],
      },
      say,
    );
    const result = (
      await client.request(CompleteSubagentDocument, {
        input: { childThreadId: child.id, result: 'parse() has 3 callers: src/a.ts, src/b.ts, src/c.ts' },
      })
    ).completeSubagent;
    say.line(
      `  completeSubagent: ${result.kind} ${result.status}, returned to run ${child.lineage.sourcePoint?.runOrdinal} as ${result.handoff?.strategy}`,
    );
  });
  await playTurns(client, parent, [{ provider: 'claude', userMessage: 'Review the rename.' }], say);
  show('parent', parent);
  show('subagent', childId);

  say.line('');
  say.line('6. A resumed blank: back on Codex at run 4, the provider starts a fresh session instead of resuming');
  const blank = await createThread(
    client,
    `${prefix}-blank`,
    'Resumed blank: a fresh session where a resume was asked',
  );
  await playTurns(
    client,
    blank,
    [...filler('codex', 2, 'Write the exporter, step'), { provider: 'claude', userMessage: 'Review the exporter.' }],
    say,
  );
  const back: Turn = { provider: 'codex', userMessage: 'Apply the review comments.' };
  // The provider runs a fresh session where a resume was asked; runTurn's bind finds it out and
  // dispatches the re-planned run, while the blank session still tries to complete.
  const resumesBlank: Agent = async (call) => {
    const { replaced } = call;
    if (replaced)
      say.line(
        `  bindNativeThread ${replaced.nativeThreadRef} where ${replaced.dispatch.nativeThreadRef} was to be resumed: resumedBlank true, ${replaced.providerThread.id} ${replaced.providerThread.status}`,
      );
    say.decision(call.run.ordinal, call.run.provider, call.plan, call.handoff);
    if (!replaced) return { nativeThreadRef: `codex-native-${randomBytes(4).toString('hex')}`, ...outcomeOf(back) };
    try {
      await client.request(CompleteRunDocument, {
        input: { runId: call.run.id, fencingToken: replaced.dispatch.fencingToken, ...outcomeOf(back) },
      });
      say.line("  the blank session's late completion was recorded (it should not have been)");
    } catch (error) {
      if (!(error instanceof ThreadlineClientError)) throw error;
      say.line(`  the blank session's late completion: ${error.message}`);
    }
    return { nativeThreadRef: nativeThreadOf(call), ...outcomeOf(back) };
  };
  await runTurn(client, startInput(blank, back), resumesBlank);
  show('blank', blank);

  say.flush();
  return { threads, viewerUrls };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  main().catch((error: unknown) => {
    if (error instanceof ThreadlineClientError && error.code === 'ECONNREFUSED') {
      console.error(
        `No Threadline service answers at ${graphqlEndpoint(process.env.THREADLINE_URL || DEFAULT_URL)}: start one with \`threadline start\` (or set THREADLINE_URL to its base URL).`,
      );
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    process.exit(1);
  });
}
