// Faults under a write load (issue 8): Neo4j killed under a running service, and the service
// SIGKILLed and started again. After each, every mutation the clients were told succeeded
// must be in the graph as acknowledged, and the invariant audit must be clean. While Neo4j is down,
// /readyz says 503 and reads fail as fast as writes, with SERVICE_UNAVAILABLE; when it is back on the
// same store and port, the service recovers without a restart. The file runs its own
// Neo4j on a temporary store, so the faults touch nobody else's tests and the audit sees only this
// file's data.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { describeViolations, runAudit } from '../../src/graph/audit.js';
import { createDriver } from '../../src/graph/driver.js';
import { startLocalNeo4j, type LocalNeo4j } from '../../src/graph/localNeo4j.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { startService } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import { uniqueId } from '../support/service.js';
import { compareWithGraph, leftovers, WriteLoad } from '../support/writeLoad.js';
import { TEST_NEO4J_SETTINGS } from '../support/neo4jSettings.js';

const PASSWORD = 'reliability-faults';
const DATABASE = 'neo4j';
const CLIENTS = 4;
// Enough acknowledged mutations that every client is mid-cycle when a fault lands, and that the load
// visibly goes on after it; few enough to keep the file's wall time down.
const MUTATIONS_BETWEEN_FAULTS = 24;
// With Neo4j gone the driver retries a transaction for maxTransactionRetryTime, 5 s
// (src/graph/driver.ts), on a 1, 2, 4 s (±20%) back-off, so its last attempt starts 3 to 7.8 s in
// and fails at once (connection refused): measured 6-8 s, 10 s at worst with this 2-core machine
// shared by other suites. Twice that is the bound; with the driver's default 30 s of retries a
// request would fail after about 31 s instead.
const FAIL_FAST_BOUND_MS = 20_000;
// The service's graph deadline in the stall test (THREADLINE_GRAPH_DEADLINE_MS): short, so the test
// is, but above what a busy 2-core machine needs for one operation of the load.
const STALL_DEADLINE_MS = 8_000;
// A fresh or restarted Neo4j plans every statement afresh: its first answers are slow on a busy machine.
const COLD_START_TIMEOUT_MS = 120_000;

let storeDir: string;
let neo4j: LocalNeo4j;
let checker: Driver;
const figures = {
  operationsRun: 0,
  acknowledgedMutations: 0,
  faultsInjected: 0,
  acknowledgedWritesChecked: 0,
  violationsFound: 0,
  failedRequests: 0,
  orphanRunsInterrupted: 0,
  neo4jFault: null as null | {
    failedRequests: number;
    slowestFailureMs: number;
    medianFailureMs: number;
    neo4jRestartMs: number;
    readyzAfterRestartMs: number;
    firstAckAfterRestartMs: number;
  },
  neo4jStall: null as null | {
    stalledForMs: number;
    readyzWhileStalledMs: number;
    failedRequests: number;
    slowestFailureMs: number;
    firstAckAfterResumeMs: number;
  },
  serviceFaults: [] as {
    fault: string;
    firstFailureAfterKillMs: number;
    serviceStartMs: number;
    firstAckAfterStartMs: number;
  }[],
};

beforeAll(async () => {
  storeDir = await mkdtemp(join(tmpdir(), 'threadline-faults-'));
  neo4j = await startLocalNeo4j({ storeDir, password: PASSWORD, settings: TEST_NEO4J_SETTINGS });
  checker = createDriver({ uri: neo4j.uri, user: 'neo4j', password: PASSWORD, database: DATABASE });
});
afterAll(async () => {
  console.log(`reliability-figures: ${JSON.stringify(figures)}`);
  await checker?.close();
  await neo4j?.stop();
  if (storeDir) await rm(storeDir, { recursive: true, force: true });
});

/** What both tests check once the load is over, and add to the figures. */
async function expectEveryAcknowledgedWriteKept(load: WriteLoad) {
  expect(load.unexpected).toEqual([]);
  const { checked, mismatches } = await compareWithGraph(checker, DATABASE, load);
  expect(mismatches).toEqual([]);
  // The clients end every run they start, lost answers included: none may be left running.
  const { running, duplicatedKeys } = await leftovers(checker, DATABASE, load);
  expect(running).toEqual([]);
  expect(duplicatedKeys).toEqual([]);
  const violations = await runAudit(checker, DATABASE);
  expect(violations, describeViolations(violations)).toEqual([]);

  figures.operationsRun += load.attempts.length;
  figures.acknowledgedMutations += load.acknowledgedMutations;
  figures.acknowledgedWritesChecked += checked;
  figures.violationsFound += mismatches.length + running.length + duplicatedKeys.length + violations.length;
  figures.failedRequests += load.failures.length;
  figures.orphanRunsInterrupted += load.orphansInterrupted;
}

async function waitUntilReady(readyzUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await fetch(readyzUrl)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${readyzUrl} not 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function readThread(url: string, id: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'query($id: ID!) { thread(id: $id) { id title } }', variables: { id } }),
  });
  return (await response.json()) as {
    data?: { thread: { id: string; title: string | null } | null };
    errors?: { extensions?: { code?: string } }[];
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

describe('faults under a write load', () => {
  it('Neo4j killed mid-load: requests fail fast with SERVICE_UNAVAILABLE, the service recovers by itself, nothing acknowledged is lost', async () => {
    const serviceDriver = createDriver({ uri: neo4j.uri, user: 'neo4j', password: PASSWORD, database: DATABASE });
    const service = await startService(
      loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }),
      serviceDriver,
      createLogger('silent'),
    );
    const load = new WriteLoad({
      url: () => service.url,
      clients: CLIENTS,
      idPrefix: uniqueId('neo4j-fault'),
      seed: 1,
    });
    try {
      const readyz = service.url.replace('/graphql', '/readyz');
      load.start();
      await load.acknowledgedMore(MUTATIONS_BETWEEN_FAULTS, COLD_START_TIMEOUT_MS);

      // A crash rather than neo4j.stop()'s clean shutdown: nothing gets flushed on the way out, so
      // only what Neo4j made durable at commit survives, and that must include every acknowledged
      // write. (A clean stop under this load passed the same checks; one Neo4j restart is what the
      // file's wall time affords.)
      const port = neo4j.port;
      const faultAt = Date.now();
      process.kill(neo4j.pid, 'SIGKILL');
      await neo4j.stop();
      figures.faultsInjected++;
      // /readyz asks Neo4j through the same driver, so it takes as long as a failing request: all at once.
      const [threadId, thread] = [...load.snapshot().threads][0]!;
      const readAt = Date.now();
      const [readyzWhileDown, readWhileDown] = await Promise.all([
        fetch(readyz),
        readThread(service.url, threadId),
        load.failedSince(faultAt, CLIENTS, 2 * FAIL_FAST_BOUND_MS),
      ]);
      expect(readyzWhileDown.status).toBe(503);
      // The load only writes: a read meets the outage the same way.
      expect(readWhileDown.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
      expect(Date.now() - readAt).toBeLessThan(2 * FAIL_FAST_BOUND_MS);
      // Failing fast also means that no request waits out the outage.
      expect(load.pendingLongerThan(FAIL_FAST_BOUND_MS)).toEqual([]);

      // The service was given one URI and reconnects to it: Neo4j comes back on the same port.
      const restartAt = Date.now();
      neo4j = await startLocalNeo4j({ storeDir, password: PASSWORD, port, settings: TEST_NEO4J_SETTINGS });
      const backAt = Date.now();
      await waitUntilReady(readyz, COLD_START_TIMEOUT_MS);
      const readyAt = Date.now();
      expect((await readThread(service.url, threadId)).data?.thread).toEqual({ id: threadId, title: thread.title });
      await load.acknowledgedMore(MUTATIONS_BETWEEN_FAULTS, COLD_START_TIMEOUT_MS);
      await load.stop();

      // Before the fault and once the service said it was ready again every request succeeded: the
      // failures are the outage's.
      const outage = load.failures;
      expect(
        outage.filter((failure) => failure.startedAt + failure.latencyMs! < faultAt || failure.startedAt >= readyAt),
      ).toEqual([]);
      expect(outage.length).toBeGreaterThanOrEqual(CLIENTS);
      expect(new Set(outage.map((failure) => failure.outcome))).toEqual(new Set(['SERVICE_UNAVAILABLE']));
      const latencies = outage.map((failure) => failure.latencyMs!);
      expect(Math.max(...latencies)).toBeLessThan(FAIL_FAST_BOUND_MS);
      figures.neo4jFault = {
        failedRequests: outage.length,
        slowestFailureMs: Math.max(...latencies),
        medianFailureMs: median(latencies),
        neo4jRestartMs: backAt - restartAt,
        readyzAfterRestartMs: readyAt - backAt,
        firstAckAfterRestartMs: load.firstAcknowledgedAfter(backAt)! - backAt,
      };
      await expectEveryAcknowledgedWriteKept(load);
    } finally {
      load.abandon();
      await service.close();
      await serviceDriver.close();
    }
  }, 600_000);

  it('Neo4j stalled (SIGSTOP) mid-load: /readyz says 503 and requests fail with SERVICE_UNAVAILABLE while it is stopped, then all recovers', async () => {
    const serviceDriver = createDriver({ uri: neo4j.uri, user: 'neo4j', password: PASSWORD, database: DATABASE });
    const limits = { THREADLINE_GRAPH_DEADLINE_MS: String(STALL_DEADLINE_MS), THREADLINE_READY_TIMEOUT_MS: '1000' };
    const service = await startService(
      loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ...limits }),
      serviceDriver,
      createLogger('silent'),
    );
    const load = new WriteLoad({
      url: () => service.url,
      clients: CLIENTS,
      idPrefix: uniqueId('neo4j-stall'),
      seed: 3,
    });
    try {
      const readyz = service.url.replace('/graphql', '/readyz');
      load.start();
      await load.acknowledgedMore(MUTATIONS_BETWEEN_FAULTS, COLD_START_TIMEOUT_MS);

      // A stopped JVM keeps its sockets open: connections succeed, queries never answer. Only the
      // service's own deadline can end a request then.
      const stallAt = Date.now();
      process.kill(neo4j.pid, 'SIGSTOP');
      figures.faultsInjected++;
      let resumeAt = 0;
      try {
        const probeAt = Date.now();
        const readyzWhileStalled = await fetch(readyz);
        const readyzWhileStalledMs = Date.now() - probeAt;
        expect(readyzWhileStalled.status).toBe(503);
        await load.failedSince(stallAt, CLIENTS, 4 * STALL_DEADLINE_MS);
        // Nobody waits for the JVM to come back.
        expect(load.pendingLongerThan(2 * STALL_DEADLINE_MS)).toEqual([]);
        figures.neo4jStall = {
          stalledForMs: 0,
          readyzWhileStalledMs,
          failedRequests: 0,
          slowestFailureMs: 0,
          firstAckAfterResumeMs: 0,
        };
      } finally {
        process.kill(neo4j.pid, 'SIGCONT');
        resumeAt = Date.now();
      }
      await waitUntilReady(readyz, COLD_START_TIMEOUT_MS);
      await load.acknowledgedMore(MUTATIONS_BETWEEN_FAULTS, COLD_START_TIMEOUT_MS);
      await load.stop();

      const stalled = load.failures.filter(
        (failure) => failure.startedAt >= stallAt - STALL_DEADLINE_MS && failure.startedAt < resumeAt,
      );
      expect(stalled.length).toBeGreaterThanOrEqual(CLIENTS);
      expect(new Set(stalled.map((failure) => failure.outcome))).toEqual(new Set(['SERVICE_UNAVAILABLE']));
      const latencies = stalled.map((failure) => failure.latencyMs!);
      figures.neo4jStall = {
        ...figures.neo4jStall,
        stalledForMs: resumeAt - stallAt,
        failedRequests: stalled.length,
        slowestFailureMs: Math.max(...latencies),
        firstAckAfterResumeMs: load.firstAcknowledgedAfter(resumeAt)! - resumeAt,
      };
      await expectEveryAcknowledgedWriteKept(load);
    } finally {
      load.abandon();
      await service.close();
      await serviceDriver.close();
    }
  }, 600_000);

  it('the service SIGKILLed mid-load and started again: nothing acknowledged is lost, and a run it left RUNNING is ended through failRun', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/graphql`;
    let service = await startServiceProcess(port);
    const load = new WriteLoad({ url: () => url, clients: CLIENTS, idPrefix: uniqueId('service-fault'), seed: 2 });
    try {
      const gql = async (query: string, variables: Record<string, unknown> = {}) =>
        (await (
          await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query, variables }),
          })
        ).json()) as {
          data?: any;
          errors?: { extensions?: { code?: string; runId?: string } }[];
        };
      // A turn still going when the service dies: its run is RUNNING in the graph, and no later
      // request will come from a service process that remembers it.
      const strandedThread = uniqueId('stranded');
      await gql(`mutation($id: ID!) { createThread(input: { id: $id }) { id } }`, { id: strandedThread });
      const stranded = (
        await gql(
          `mutation($id: ID!) { startRun(input: { threadId: $id, provider: "codex", userMessage: "long turn" }) { run { id status } } }`,
          { id: strandedThread },
        )
      ).data.startRun.run;
      expect(stranded.status).toBe('RUNNING');

      load.start();
      await load.acknowledgedMore(MUTATIONS_BETWEEN_FAULTS, COLD_START_TIMEOUT_MS);
      for (const fault of ['SIGKILL', 'SIGKILL again'] as const) {
        const killAt = Date.now();
        await service.kill();
        figures.faultsInjected++;
        await load.failedSince(killAt, CLIENTS, 2 * FAIL_FAST_BOUND_MS);
        const firstFailure = load.failures.find((failure) => failure.startedAt >= killAt)!;

        const startAt = Date.now();
        service = await startServiceProcess(port);
        const startedAt = Date.now();
        await load.acknowledgedMore(MUTATIONS_BETWEEN_FAULTS, COLD_START_TIMEOUT_MS);
        figures.serviceFaults.push({
          fault,
          firstFailureAfterKillMs: firstFailure.startedAt + firstFailure.latencyMs! - killAt,
          serviceStartMs: startedAt - startAt,
          firstAckAfterStartMs: load.firstAcknowledgedAfter(startedAt)! - startedAt,
        });
      }
      await load.stop();
      // With the service gone there is no answer at all, so no error code either.
      expect(new Set(load.failures.map((failure) => failure.outcome))).toEqual(new Set(['NETWORK']));
      await expectEveryAcknowledgedWriteKept(load);

      // The service has no timeout for a running run: it stays RUNNING through restarts and blocks
      // the thread until the orchestrator ends it, which RUN_IN_PROGRESS tells it how to do.
      expect((await gql(`query($id: ID!) { run(id: $id) { status } }`, { id: stranded.id })).data.run.status).toBe(
        'RUNNING',
      );
      const blocked = await gql(
        `mutation($id: ID!) { startRun(input: { threadId: $id, provider: "claude", userMessage: "next" }) { run { id } } }`,
        { id: strandedThread },
      );
      expect(blocked.errors?.[0]?.extensions).toMatchObject({ code: 'RUN_IN_PROGRESS', runId: stranded.id });
      const noRollback = await gql(
        `mutation($id: ID!) { rollbackThread(input: { threadId: $id, toOrdinal: 0 }) { thread { id } } }`,
        { id: strandedThread },
      );
      expect(noRollback.errors?.[0]?.extensions).toMatchObject({ code: 'RUN_IN_PROGRESS', runId: stranded.id });
      const ended = await gql(
        `mutation($id: ID!) { failRun(input: { runId: $id, error: "the service died during the turn", interrupted: true }) { status error } }`,
        {
          id: stranded.id,
        },
      );
      expect(ended.data.failRun).toEqual({ status: 'INTERRUPTED', error: 'the service died during the turn' });
      const next = await gql(
        `mutation($id: ID!) { startRun(input: { threadId: $id, provider: "claude", userMessage: "next" }) { run { ordinal status } } }`,
        { id: strandedThread },
      );
      expect(next.data.startRun.run).toEqual({ ordinal: 2, status: 'RUNNING' });

      expect(service.errorLines()).toEqual([]);
    } finally {
      load.abandon();
      await service.kill();
    }
  }, 600_000);
});

interface ServiceProcess {
  /** Error log lines of every service process this file started. */
  errorLines(): string[];
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

const serviceErrorLines: string[] = [];

/**
 * `npm start` without its build step: main.ts under tsx's loader, in this very process's node so
 * that the pid is the service itself (the tsx CLI would put a wrapper process in between).
 */
async function startServiceProcess(port: number): Promise<ServiceProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith('THREADLINE_') || name.startsWith('NEO4J_')) delete env[name];
  Object.assign(env, {
    NEO4J_URI: neo4j.uri,
    NEO4J_USER: 'neo4j',
    NEO4J_PASSWORD: PASSWORD,
    NEO4J_DATABASE: DATABASE,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
  });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: projectRoot(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stderr }).on('line', (line) => serviceErrorLines.push(line));
  const listening = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('Threadline GraphQL at ')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => resolve(false));
  });
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  if (!listening) {
    await kill();
    throw new Error(`the service did not start:\n${serviceErrorLines.join('\n')}`);
  }
  return { errorLines: () => [...serviceErrorLines], kill };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
