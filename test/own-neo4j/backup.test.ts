// Backups (npm run backup, npm run restore) under a write load: the service and its Neo4j stop (the
// store is quiesced: Neo4j Community dumps only a stopped database), the store is dumped, both start
// again and the load goes on. The dump, restored into an empty store, must hold every write the
// clients were told succeeded before the stop, pass Neo4j's consistency check and the invariant
// audit, and serve the API. The file runs its own Neo4j on a temporary store.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { describeViolations, runAudit } from '../../src/graph/audit.js';
import { createDriver } from '../../src/graph/driver.js';
import { startLocalNeo4j, type LocalNeo4j } from '../../src/graph/localNeo4j.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { startService, type RunningService } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import { uniqueId } from '../support/service.js';
import { compareWithGraph, WriteLoad, type AcknowledgedLog } from '../support/writeLoad.js';
import { TEST_NEO4J_SETTINGS } from '../support/neo4jSettings.js';

const PASSWORD = 'backup-test-password';
const DATABASE = 'neo4j';
const CLIENTS = 4;
const MUTATIONS_BEFORE = 24;
const MUTATIONS_AFTER = 12;
// A fresh or restarted Neo4j plans every statement afresh: its first answers are slow on a busy machine.
const COLD_START_TIMEOUT_MS = 120_000;

let workDir: string;
let neo4j: LocalNeo4j | undefined;
const figures: Record<string, number> = {};

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'threadline-backup-'));
});
afterAll(async () => {
  console.log(`backup-figures: ${JSON.stringify(figures)}`);
  await neo4j?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** Runs `npm run <tool>` as a user would (without the npm wrapper); never rejects. */
function runTool(tool: 'backup' | 'restore', args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.NEO4J_URI;
    const child = spawn(process.execPath, ['--import', 'tsx', join('tools', `${tool}.ts`), ...args], {
      cwd: projectRoot(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function serviceOn(uri: string, password: string | null): Promise<RunningService & { stop(): Promise<void> }> {
  const driver = createDriver({ uri, user: 'neo4j', password, database: DATABASE });
  const service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }), driver, createLogger('silent'));
  return {
    ...service,
    stop: async () => {
      await service.close();
      await driver.close();
    },
  };
}

describe('backup and restore', () => {
  it('a backup taken in the middle of a write load holds every write acknowledged before it, and restores into an empty store', async () => {
    const storeDir = join(workDir, 'store');
    const restoreDir = join(workDir, 'restored');
    const dump = join(workDir, 'backups', 'threadline.dump');
    neo4j = await startLocalNeo4j({ storeDir, password: PASSWORD, settings: TEST_NEO4J_SETTINGS });
    let service = await serviceOn(neo4j.uri, PASSWORD);
    let atBackup: AcknowledgedLog | undefined;
    const load = new WriteLoad({ url: () => service.url, clients: CLIENTS, idPrefix: uniqueId('backup'), seed: 3 });
    try {
      load.start();
      await load.acknowledgedMore(MUTATIONS_BEFORE, COLD_START_TIMEOUT_MS);

      // A store in use is refused, and nothing is written.
      const inUse = await runTool('backup', ['--store', storeDir, '--out', dump]);
      expect(inUse.code, inUse.output).toBe(2);
      expect(inUse.output).toMatch(/in use/);

      // Quiesce: the service stops (in-flight requests finish or fail; the clients retry until it is
      // back), then its Neo4j, cleanly. From here on nothing commits until the dump is taken.
      const quiescedAt = Date.now();
      await service.stop();
      await neo4j.stop();
      atBackup = load.snapshot();
      const stoppedAt = Date.now();
      const backup = await runTool('backup', ['--store', storeDir, '--out', dump]);
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toMatch(/^Backed up .* \(\d+ bytes/m);
      const dumpedAt = Date.now();
      neo4j = await startLocalNeo4j({ storeDir, password: PASSWORD, settings: TEST_NEO4J_SETTINGS });
      service = await serviceOn(neo4j.uri, PASSWORD);
      const backAt = Date.now();
      await load.acknowledgedMore(MUTATIONS_AFTER, COLD_START_TIMEOUT_MS);
      await load.stop();
      expect(load.unexpected).toEqual([]);
      figures.acknowledgedBeforeBackup = atBackup.threads.size + atBackup.runs.size;
      figures.stopMs = stoppedAt - quiescedAt;
      figures.backupToolMs = dumpedAt - stoppedAt;
      figures.startMs = backAt - dumpedAt;
      figures.dumpBytes = Number(/\((\d+) bytes/.exec(backup.output)![1]);
      figures.firstAckAfterRestartMs = load.firstAcknowledgedAfter(backAt)! - backAt;

      // A dump is loaded into an empty store only: an existing graph is replaced with --force alone.
      const refused = await runTool('restore', ['--from', dump, '--store', storeDir]);
      expect(refused.code, refused.output).toBe(2);
      expect(refused.output).toMatch(/already holds a database/);

      const restoreStarted = Date.now();
      const restore = await runTool('restore', ['--from', dump, '--store', restoreDir]);
      figures.restoreWithCheckMs = Date.now() - restoreStarted;
      expect(restore.code, restore.output).toBe(0);
      expect(restore.output).toMatch(/Checked: files consistent; .*invariant audit clean/);
    } finally {
      load.abandon();
      await service.stop();
    }

    const restored = await startLocalNeo4j({ storeDir: restoreDir, settings: TEST_NEO4J_SETTINGS });
    const checker = createDriver({ uri: restored.uri, user: 'neo4j', password: null, database: DATABASE });
    const restoredService = await serviceOn(restored.uri, null);
    try {
      // Every write acknowledged before the backup, as acknowledged; the invariants hold.
      const { checked, mismatches } = await compareWithGraph(checker, DATABASE, atBackup);
      expect(mismatches).toEqual([]);
      expect(checked).toBe(figures.acknowledgedBeforeBackup);
      const violations = await runAudit(checker, DATABASE);
      expect(violations, describeViolations(violations)).toEqual([]);
      // What was acknowledged after it is not all there: the backup is a copy of its moment.
      expect((await compareWithGraph(checker, DATABASE, load)).mismatches.length).toBeGreaterThan(0);

      // The restored store serves the API: a thread's runs read back over HTTP.
      const [threadId, thread] = [...atBackup.threads].find(([id]) =>
        [...atBackup.runs.values()].some((run) => run.threadId === id),
      )!;
      const response = await fetch(restoredService.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'query($id: ID!) { thread(id: $id) { title runs(first: 500) { edges { node { id } } } } }',
          variables: { id: threadId },
        }),
      });
      const body = (await response.json()) as {
        data: { thread: { title: string; runs: { edges: { node: { id: string } }[] } } };
      };
      expect(body.data.thread.title).toBe(thread.title);
      const ids = body.data.thread.runs.edges.map((edge) => edge.node.id);
      expect(ids).toEqual(
        expect.arrayContaining(
          [...atBackup.runs.values()].filter((run) => run.threadId === threadId).map((run) => run.id),
        ),
      );
    } finally {
      await restoredService.stop();
      await checker.close();
      await restored.stop();
    }
  }, 900_000);
});
