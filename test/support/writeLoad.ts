// A write load for fault tests: concurrent clients that drive realistic mutation cycles over HTTP
// like orchestrators would, retry through outages, and keep a log of every acknowledged mutation so
// that the graph can be compared with what the service promised once the faults are over. They speak
// through the typed client (client/), with their own retry rules on top.
import type { Driver } from 'neo4j-driver';
import {
  CompleteRunDocument,
  ConfirmProviderRollbackDocument,
  createThreadlineClient,
  CreateThreadDocument,
  FailRunDocument,
  ForkThreadDocument,
  RollbackThreadDocument,
  StartRunDocument,
  ThreadlineClientError,
  ThreadRunsDocument,
  type GraphQLErrorBody,
  type TypedDocument,
} from '../../client/index.js';
import { randomNumbers } from '../../bench/random.js';

export type RunStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'INTERRUPTED' | 'ROLLED_BACK';

export interface AcknowledgedThread {
  id: string;
  title: string | null;
  parentThreadId: string | null;
  forkOrdinal: number;
}

export interface AcknowledgedRun {
  id: string;
  threadId: string;
  ordinal: number;
  provider: string;
  /** The status the last acknowledged mutation of this run answered. */
  status: RunStatus;
  /**
   * Statuses an unacknowledged attempt made after that answer may have committed (its response
   * was lost): the graph may hold one of these instead.
   */
  mayAlsoBe: Set<RunStatus>;
  /** What completeRun was sent with, once it was: a completed run must hold all of it. */
  completion: { assistantMessage: string; facts: number; checkpointRef: string } | null;
}

/** One HTTP request of the load. */
export interface Attempt {
  operation: string;
  /** OK, the error code of the GraphQL response, or NETWORK when no response came back; null while in flight. */
  outcome: string | null;
  startedAt: number;
  latencyMs: number | null;
}

/** A definitive answer the clients did not expect, kept to fail the test with. */
export interface UnexpectedAnswer {
  operation: string;
  detail: unknown;
}

export interface LoadMismatch {
  kind: 'thread' | 'run';
  id: string;
  expected: unknown;
  found: unknown;
}

type Answer<T> = { ok: true; data: T } | { ok: false; code: string; error: GraphQLErrorBody; afterAmbiguity: boolean };

// Answers that say nothing about whether the mutation committed: the client retries them.
const TRANSIENT_CODES = new Set(['SERVICE_UNAVAILABLE', 'NETWORK', 'INTERNAL_SERVER_ERROR']);
const RETRY_PAUSE_MS = 200;
// Only a net against a request that never ends. A restarted Neo4j plans every statement afresh, and
// on a 2-core machine shared with other suites its first answers were measured at up to 35 s.
const REQUEST_TIMEOUT_MS = 120_000;
const PROVIDERS = ['codex', 'claude'];

/** The client's view of one of its threads: its own live runs by ordinal, and its head. */
interface ThreadView {
  id: string;
  forkOrdinal: number;
  head: number;
  liveRunIds: Map<number, string>;
  turns: number;
}

export interface WriteLoadOptions {
  /** Read before every request, so a restarted service may move. */
  url: () => string;
  clients: number;
  /** Prefix of the client-chosen thread ids, unique per load. */
  idPrefix: string;
  seed: number;
}

/** What the clients were told succeeded: the whole load's log, or a snapshot of it. */
export type AcknowledgedLog = Pick<WriteLoad, 'threads' | 'runs'>;

export class WriteLoad {
  readonly threads = new Map<string, AcknowledgedThread>();
  readonly runs = new Map<string, AcknowledgedRun>();
  /** Every HTTP request the clients sent, retries included. */
  readonly attempts: Attempt[] = [];
  readonly unexpected: UnexpectedAnswer[] = [];
  acknowledgedMutations = 0;
  /** Runs a client found RUNNING that it had never been told about, and interrupted. */
  orphansInterrupted = 0;
  private readonly ackTimes: number[] = [];
  private stopping = false;
  private abandoned = false;
  private clients: Promise<void>[] = [];

  constructor(private readonly options: WriteLoadOptions) {}

  start(): void {
    this.clients = Array.from({ length: this.options.clients }, (_, index) =>
      this.runClient(index).catch((error: unknown) => {
        this.unexpected.push({ operation: `client ${index}`, detail: String(error) });
      }),
    );
  }

  /** Resolves once `count` more mutations than now have been acknowledged. */
  async acknowledgedMore(count: number, timeoutMs: number): Promise<void> {
    const target = this.acknowledgedMutations + count;
    const deadline = Date.now() + timeoutMs;
    while (this.acknowledgedMutations < target) {
      this.throwOnUnexpected();
      if (Date.now() > deadline)
        throw new Error(
          `the load acknowledged ${this.acknowledgedMutations} of ${target} mutations within ${timeoutMs} ms`,
        );
      await pause(50);
    }
  }

  /** Resolves once `count` failed attempts have started after `since`. */
  async failedSince(since: number, count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.failures.filter((failure) => failure.startedAt >= since).length < count) {
      this.throwOnUnexpected();
      if (Date.now() > deadline) throw new Error(`fewer than ${count} failed attempts within ${timeoutMs} ms`);
      await pause(50);
    }
  }

  private throwOnUnexpected(): void {
    if (this.unexpected.length > 0)
      throw new Error(`the load got unexpected answers: ${JSON.stringify(this.unexpected, null, 2)}`);
  }

  /** Requests that got no definitive answer, so the load retried them. */
  get failures(): Attempt[] {
    return this.attempts.filter((attempt) => attempt.outcome !== null && TRANSIENT_CODES.has(attempt.outcome));
  }

  /** Requests in flight for longer than `ms`. */
  pendingLongerThan(ms: number): Attempt[] {
    const now = Date.now();
    return this.attempts.filter((attempt) => attempt.outcome === null && now - attempt.startedAt > ms);
  }

  firstAcknowledgedAfter(since: number): number | undefined {
    return this.ackTimes.find((at) => at >= since);
  }

  /**
   * A copy of what has been acknowledged so far, with the states attempts in flight may commit: what
   * a copy of the graph taken now must hold (compareWithGraph takes it like the load itself).
   */
  snapshot(): AcknowledgedLog {
    return {
      threads: new Map([...this.threads].map(([id, thread]) => [id, { ...thread }])),
      runs: new Map(
        [...this.runs].map(([id, run]) => [
          id,
          { ...run, mayAlsoBe: new Set(run.mayAlsoBe), completion: run.completion && { ...run.completion } },
        ]),
      ),
    };
  }

  /** Lets every client finish its current cycle, so no run it started is left running. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.clients);
  }

  /** Ends the clients at their next request, for a test that failed before it could stop them. */
  abandon(): void {
    this.abandoned = true;
  }

  private async runClient(index: number): Promise<void> {
    // The clients' choices repeat for a seed, whatever the timing.
    const random = randomNumbers(this.options.seed * 100 + index);
    // Half the clients retry startRun with an idempotency key; the others cannot, and must find and
    // end the run a lost response may have started.
    const useIdempotencyKeys = index % 2 === 0;
    let roots = 0;
    let thread = await this.createRootThread(`${this.options.idPrefix}-c${index}-t${roots++}`);
    // The clients stop at the first unexpected answer: the test fails on it, and going on would only
    // pile up its consequences.
    while (!this.stopping && this.unexpected.length === 0) {
      await this.turn(thread, random, useIdempotencyKeys);
      const dice = random();
      if (dice < 0.15) await this.rollback(thread, random);
      // A thread rolled back to 0 has no stable run to fork from.
      else if (dice < 0.25 && thread.head > 0) thread = (await this.fork(thread)) ?? thread;
      else if (dice < 0.32) thread = await this.createRootThread(`${this.options.idPrefix}-c${index}-t${roots++}`);
    }
  }

  private async createRootThread(id: string): Promise<ThreadView> {
    const title = `load thread ${id}`;
    // createThread with a client-chosen id returns the existing thread, so a retry is always safe.
    const answer = await this.request('createThread', CreateThreadDocument, { input: { id, title } });
    if (answer.ok) {
      this.acknowledge();
      this.threads.set(id, { id, title: answer.data.createThread.title, parentThreadId: null, forkOrdinal: 0 });
    } else {
      this.unexpected.push({ operation: 'createThread', detail: answer.error });
    }
    return { id, forkOrdinal: 0, head: 0, liveRunIds: new Map(), turns: 0 };
  }

  /** One provider turn: startRun, then completeRun with what the turn produced. */
  private async turn(thread: ThreadView, random: () => number, useIdempotencyKeys: boolean): Promise<void> {
    const provider = PROVIDERS[Math.floor(random() * PROVIDERS.length)]!;
    const turn = ++thread.turns;
    const input = {
      threadId: thread.id,
      provider,
      userMessage: `turn ${turn} of ${thread.id}: change the parser`,
      ...(useIdempotencyKeys ? { idempotencyKey: `${thread.id}-turn-${turn}` } : {}),
    };
    let started: AcknowledgedRun | undefined;
    while (!started) {
      const answer = await this.request('startRun', StartRunDocument, { input });
      if (answer.ok) {
        const run = answer.data.startRun.run;
        started = this.acknowledgeRun(run);
      } else if (answer.code === 'RUN_IN_PROGRESS' && typeof answer.error.extensions?.runId === 'string') {
        // Only this client writes to its threads: a running run it does not know was started by a
        // request whose answer was lost. The API's way out is to end it as interrupted.
        if (!(await this.interruptOrphan(thread, answer.error.extensions.runId))) return;
      } else {
        this.unexpected.push({ operation: 'startRun', detail: answer.error });
        return;
      }
    }
    thread.head = started.ordinal;
    thread.liveRunIds.set(started.ordinal, started.id);

    const completion = {
      runId: started.id,
      assistantMessage: `turn ${turn} done`,
      facts: [
        { kind: 'DECISION' as const, text: `turn ${turn}: keep the recursive-descent parser` },
        { kind: 'TEST' as const, key: 'npm test', text: 'npm test passed', status: 'passed' },
      ],
      checkpoint: { ref: `commit-${thread.id}-${turn}` },
    };
    started.mayAlsoBe.add('COMPLETED');
    started.completion = {
      assistantMessage: completion.assistantMessage,
      facts: completion.facts.length,
      checkpointRef: completion.checkpoint.ref,
    };
    const answer = await this.request('completeRun', CompleteRunDocument, { input: completion });
    if (answer.ok) {
      this.acknowledge();
      started.status = answer.data.completeRun.status;
      started.mayAlsoBe.clear();
    } else if (!(answer.afterAmbiguity && answer.code === 'CONFLICT')) {
      // CONFLICT after a lost answer means that earlier attempt completed the run.
      this.unexpected.push({ operation: 'completeRun', detail: answer.error });
    }
  }

  private async interruptOrphan(thread: ThreadView, runId: string): Promise<boolean> {
    const answer = await this.request('failRun', FailRunDocument, {
      input: { runId, error: 'the orchestrator lost the answer of startRun', interrupted: true },
    });
    if (answer.ok) {
      this.orphansInterrupted++;
      const run = this.acknowledgeRun(answer.data.failRun);
      thread.head = run.ordinal;
      thread.liveRunIds.set(run.ordinal, run.id);
      return true;
    }
    if (answer.afterAmbiguity && answer.code === 'CONFLICT') {
      this.orphansInterrupted++;
      return this.resync(thread);
    }
    this.unexpected.push({ operation: 'failRun', detail: answer.error });
    return false;
  }

  /** Rolls back to a random valid point: the fork point (0 for a root thread) or a live run below the head. */
  private async rollback(thread: ThreadView, random: () => number): Promise<void> {
    if (thread.head <= thread.forkOrdinal) return;
    const points = [thread.forkOrdinal, ...[...thread.liveRunIds.keys()].filter((ordinal) => ordinal < thread.head)];
    const toOrdinal = points[Math.floor(random() * points.length)]!;
    const expected = [...thread.liveRunIds].filter(([ordinal]) => ordinal > toOrdinal).map(([, id]) => id);
    for (const id of expected) this.runs.get(id)?.mayAlsoBe.add('ROLLED_BACK');
    const answer = await this.request('rollbackThread', RollbackThreadDocument, {
      input: { threadId: thread.id, toOrdinal },
    });
    if (answer.ok) {
      this.acknowledge();
      const rolledBack = answer.data.rollbackThread.rolledBackRuns;
      if (
        rolledBack
          .map((run) => run.id)
          .sort()
          .join() !== expected.sort().join()
      ) {
        this.unexpected.push({ operation: 'rollbackThread', detail: { toOrdinal, expected, rolledBack } });
      }
      for (const { id, status } of rolledBack) {
        const run = this.runs.get(id);
        if (run) {
          run.status = status;
          run.mayAlsoBe.clear();
        }
      }
      thread.head = answer.data.rollbackThread.thread.headOrdinal;
      for (const ordinal of [...thread.liveRunIds.keys()]) if (ordinal > toOrdinal) thread.liveRunIds.delete(ordinal);
      for (const { providerThread, action } of answer.data.rollbackThread.providerThreads) {
        if (action === 'ROLLED_BACK') await this.confirmNativeRollback(providerThread.id);
      }
    } else if (answer.afterAmbiguity && answer.code === 'BAD_USER_INPUT') {
      // The lost attempt rolled back already, so the point is now the head: learn the new state.
      await this.resync(thread);
    } else {
      this.unexpected.push({ operation: 'rollbackThread', detail: answer.error });
    }
  }

  /** The orchestrator performed the native rollback the service asked for. */
  private async confirmNativeRollback(providerThreadId: string): Promise<void> {
    const answer = await this.request('confirmProviderRollback', ConfirmProviderRollbackDocument, {
      input: { providerThreadId },
    });
    if (answer.ok) this.acknowledge();
    // CONFLICT after a lost answer: that earlier attempt confirmed it.
    else if (!(answer.afterAmbiguity && answer.code === 'CONFLICT'))
      this.unexpected.push({ operation: 'confirmProviderRollback', detail: answer.error });
  }

  /**
   * Forks from the latest stable run and continues on the fork. The fork's id is the service's:
   * a retry after a lost answer may leave an unacknowledged fork behind, which nobody relies on.
   */
  private async fork(thread: ThreadView): Promise<ThreadView | null> {
    const title = `fork of ${thread.id}`;
    const answer = await this.request('forkThread', ForkThreadDocument, {
      input: { sourceThreadId: thread.id, title },
    });
    if (!answer.ok) {
      this.unexpected.push({ operation: 'forkThread', detail: answer.error });
      return null;
    }
    this.acknowledge();
    const fork = answer.data.forkThread;
    this.threads.set(fork.id, {
      id: fork.id,
      title: fork.title,
      parentThreadId: fork.lineage.parent?.id ?? null,
      forkOrdinal: fork.headOrdinal,
    });
    return { id: fork.id, forkOrdinal: fork.headOrdinal, head: fork.headOrdinal, liveRunIds: new Map(), turns: 0 };
  }

  /** Replaces the client's view of a thread with what the service reads back. */
  private async resync(thread: ThreadView): Promise<boolean> {
    const answer = await this.request('thread', ThreadRunsDocument, { id: thread.id, first: 500 });
    if (!answer.ok || !answer.data.thread) {
      this.unexpected.push({ operation: 'thread', detail: answer.ok ? `thread ${thread.id} not found` : answer.error });
      return false;
    }
    const { headOrdinal, runs } = answer.data.thread;
    thread.head = headOrdinal;
    thread.liveRunIds = new Map(
      runs.edges
        .filter(({ node }) => node.status !== 'ROLLED_BACK')
        .map(({ node }) => [node.ordinal, node.id] as [number, string]),
    );
    return true;
  }

  private acknowledgeRun(run: {
    id: string;
    threadId: string;
    ordinal: number;
    provider: string;
    status: RunStatus;
  }): AcknowledgedRun {
    this.acknowledge();
    const acknowledged = {
      id: run.id,
      threadId: run.threadId,
      ordinal: run.ordinal,
      provider: run.provider,
      status: run.status,
      mayAlsoBe: new Set<RunStatus>(),
      completion: null,
    };
    this.runs.set(run.id, acknowledged);
    return acknowledged;
  }

  private acknowledge(): void {
    this.acknowledgedMutations++;
    this.ackTimes.push(Date.now());
  }

  /** Sends one operation until it gets a definitive answer, as an orchestrator retrying through outages would. */
  private async request<TResult, TVariables>(
    operation: string,
    document: TypedDocument<TResult, TVariables>,
    variables: TVariables,
  ): Promise<Answer<TResult>> {
    let afterAmbiguity = false;
    for (;;) {
      if (this.abandoned) throw new Error('the load was abandoned');
      const attempt: Attempt = { operation, outcome: null, startedAt: Date.now(), latencyMs: null };
      this.attempts.push(attempt);
      const answer = await this.send(document, variables);
      attempt.latencyMs = Date.now() - attempt.startedAt;
      attempt.outcome = answer.ok ? 'OK' : answer.code;
      const code = answer.ok ? null : answer.code;
      if (code === null || !TRANSIENT_CODES.has(code)) {
        return answer.ok ? answer : { ...answer, afterAmbiguity };
      }
      if (code === 'INTERNAL_SERVER_ERROR')
        this.unexpected.push({ operation, detail: answer.ok ? null : answer.error });
      afterAmbiguity = true;
      await pause(RETRY_PAUSE_MS);
    }
  }

  /**
   * One attempt through the typed client, at the URL of the moment: its answer, a GraphQL error's
   * code, NETWORK when no answer came back, HTTP_<status> when the answer was not GraphQL.
   */
  private async send<TResult, TVariables>(
    document: TypedDocument<TResult, TVariables>,
    variables: TVariables,
  ): Promise<Answer<TResult>> {
    const sentAt = Date.now();
    const client = createThreadlineClient({
      url: this.options.url(),
      fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    });
    let result;
    try {
      result = await client.execute(document, variables);
    } catch (error) {
      // The typed client answers "no answer" as a client error of status 0, the network's error its cause.
      const unanswered = error instanceof ThreadlineClientError && error.status === 0;
      const cause = unanswered ? (error as Error).cause : error;
      if ((cause as Error | undefined)?.name === 'TimeoutError')
        throw new Error(
          `a request sent at ${new Date(sentAt).toISOString()} got no answer within ${REQUEST_TIMEOUT_MS} ms: ${document.toString()}`,
          { cause: error },
        );
      if (error instanceof ThreadlineClientError && !unanswered)
        return {
          ok: false,
          code: `HTTP_${error.status}`,
          error: { message: error.message.slice(0, 500) },
          afterAmbiguity: false,
        };
      return {
        ok: false,
        code: 'NETWORK',
        error: { message: String((error as Error).message ?? error).slice(0, 500) },
        afterAmbiguity: false,
      };
    }
    const [error] = result.errors;
    if (error) return { ok: false, code: error.extensions?.code ?? 'NO_CODE', error, afterAmbiguity: false };
    if (result.data === null)
      return {
        ok: false,
        code: `HTTP_${result.status}`,
        error: { message: 'an answer without data' },
        afterAmbiguity: false,
      };
    return { ok: true, data: result.data };
  }
}

/**
 * Compares the acknowledged log with the graph: every acknowledged thread and run is there with the
 * acknowledged state (or one a later unacknowledged attempt may have committed), and a run that
 * completed holds everything its completeRun carried, whether or not the answer came back.
 */
export async function compareWithGraph(
  driver: Driver,
  database: string,
  load: AcknowledgedLog,
): Promise<{ checked: number; mismatches: LoadMismatch[] }> {
  const session = driver.session({ database, defaultAccessMode: 'READ' });
  try {
    const threadRows = await session.run(
      `MATCH (thread:Thread {tenant: 'local'}) WHERE thread.id IN $ids
       RETURN thread.id AS id, thread.title AS title, thread.parentThreadId AS parentThreadId, coalesce(thread.forkOrdinal, 0) AS forkOrdinal`,
      { ids: [...load.threads.keys()] },
    );
    const runRows = await session.run(
      `MATCH (thread:Thread {tenant: 'local'})-[:HAS_RUN]->(run:Run {tenant: 'local'}) WHERE run.id IN $ids
       OPTIONAL MATCH (run)-[:CAPTURED]->(checkpoint:Checkpoint)
       RETURN run.id AS id, thread.id AS threadId, run.ordinal AS ordinal, run.provider AS provider, toUpper(run.status) AS status,
              run.assistantMessage AS assistantMessage, COUNT { (run)-[:RECORDED]->(:RunFact) } AS facts, collect(checkpoint.ref) AS checkpointRefs`,
      { ids: [...load.runs.keys()] },
    );
    const foundThreads = new Map(
      threadRows.records.map((record) => [record.get('id') as string, toPlain(record.toObject())]),
    );
    const foundRuns = new Map(
      runRows.records.map((record) => [record.get('id') as string, toPlain(record.toObject())]),
    );
    const mismatches: LoadMismatch[] = [];
    for (const thread of load.threads.values()) {
      const found = foundThreads.get(thread.id);
      if (
        !found ||
        found.title !== thread.title ||
        found.parentThreadId !== thread.parentThreadId ||
        found.forkOrdinal !== thread.forkOrdinal
      ) {
        mismatches.push({ kind: 'thread', id: thread.id, expected: thread, found: found ?? null });
      }
    }
    for (const run of load.runs.values()) {
      const found = foundRuns.get(run.id);
      const statusAllowed = found && (found.status === run.status || run.mayAlsoBe.has(found.status as RunStatus));
      // The client rolls back only runs it has completed, so a rolled-back run carries its completion too.
      const completedWith = found && run.completion && (found.status === 'COMPLETED' || found.status === 'ROLLED_BACK');
      const completionKept =
        !completedWith ||
        (found.assistantMessage === run.completion!.assistantMessage &&
          found.facts === run.completion!.facts &&
          JSON.stringify(found.checkpointRefs) === JSON.stringify([run.completion!.checkpointRef]));
      if (
        !found ||
        !statusAllowed ||
        !completionKept ||
        found.threadId !== run.threadId ||
        found.ordinal !== run.ordinal ||
        found.provider !== run.provider
      ) {
        mismatches.push({
          kind: 'run',
          id: run.id,
          expected: { ...run, mayAlsoBe: [...run.mayAlsoBe] },
          found: found ?? null,
        });
      }
    }
    return { checked: load.threads.size + load.runs.size, mismatches };
  } finally {
    await session.close();
  }
}

/** Runs of the load's threads still RUNNING, and idempotency keys that made more than one run. */
export async function leftovers(
  driver: Driver,
  database: string,
  load: WriteLoad,
): Promise<{ running: string[]; duplicatedKeys: string[] }> {
  const session = driver.session({ database, defaultAccessMode: 'READ' });
  try {
    const threadIds = [...load.threads.keys()];
    const running = await session.run(
      `MATCH (run:Run {tenant: 'local'}) WHERE run.threadId IN $threadIds AND run.status = 'running' RETURN run.id AS id`,
      { threadIds },
    );
    const duplicated = await session.run(
      `MATCH (run:Run {tenant: 'local'}) WHERE run.threadId IN $threadIds AND run.idempotencyKey IS NOT NULL
       WITH run.idempotencyKey AS key, count(*) AS runs WHERE runs > 1 RETURN key`,
      { threadIds },
    );
    return {
      running: running.records.map((record) => record.get('id') as string),
      duplicatedKeys: duplicated.records.map((record) => record.get('key') as string),
    };
  } finally {
    await session.close();
  }
}

function toPlain(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === 'object' && value !== null && 'toNumber' in value
        ? (value as { toNumber(): number }).toNumber()
        : (value ?? null),
    ]),
  );
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
