// The command-line tools find the local Neo4j of a running `npm start` by themselves: chooseNeo4j
// records it in <THREADLINE_DATA_DIR>/neo4j.json while it runs, and the tools read that record.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseNeo4j, NoNeo4jError, type ChosenNeo4j } from '../../src/graph/chooseNeo4j.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { localNeo4jRecordFile, writeLocalNeo4jRecord, type LocalNeo4jRecord } from '../../src/graph/localNeo4jState.js';

const execFileAsync = promisify(execFile);
const NO_URI = { uri: null, user: 'neo4j', password: null, database: 'neo4j' };

/** `npm run <tool>` as a user runs it: no NEO4J_URI, the data directory given. */
function npmRun(
  tool: string,
  args: string[],
  dataDir: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, THREADLINE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  for (const name of ['NEO4J_URI', 'NEO4J_USER', 'NEO4J_PASSWORD', 'NEO4J_DATABASE', 'THREADLINE_API_KEYS'])
    delete env[name];
  return execFileAsync('npm', ['run', '--silent', tool, '--', ...args], {
    cwd: projectRoot(),
    env,
    timeout: 120_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

describe('the local Neo4j of npm start, found by the tools', () => {
  let dataDir: string;
  let started: ChosenNeo4j | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'threadline-choose-'));
  });

  afterAll(async () => {
    await started?.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('is recorded while it runs, read by npm run audit and query, and forgotten when it stops', async () => {
    started = await chooseNeo4j(NO_URI, {
      start: 'store',
      dataDir,
      heap: '512m',
      pageCache: '64m',
      progress: () => undefined,
    });
    expect(started.source).toBe('local');
    const record = JSON.parse(await readFile(localNeo4jRecordFile(dataDir), 'utf8')) as LocalNeo4jRecord;
    expect(record).toMatchObject({
      uri: started.connection.uri,
      pid: started.local!.pid,
      storeDir: join(dataDir, 'neo4j'),
      auth: false,
    });
    expect(Date.parse(record.startedAt)).not.toBeNaN();

    const audit = await npmRun('audit', [], dataDir);
    expect(audit.stderr).toBe('');
    expect(audit.stdout).toContain(`at ${started.connection.uri}`);
    expect(audit.code).toBe(0);
    const query = await npmRun('query', ['coverage-gaps', '--json'], dataDir);
    expect(query.code).toBe(0);
    expect(JSON.parse(query.stdout)).toEqual([]);

    // A second start on the same store is refused in one sentence, before any Neo4j is started.
    const second = chooseNeo4j(NO_URI, {
      start: 'store',
      dataDir,
      heap: '512m',
      pageCache: '64m',
      progress: () => undefined,
    });
    await expect(second).rejects.toThrow(NoNeo4jError);
    await expect(second).rejects.toThrow(
      `The store ${join(dataDir, 'neo4j')} is already in use by another start (Neo4j pid ${record.pid} at ${record.uri}`,
    );
    // Without the record (a Neo4j of another tool on that store), Neo4j's lock refuses it: one sentence too.
    await rename(localNeo4jRecordFile(dataDir), `${localNeo4jRecordFile(dataDir)}.aside`);
    const third = chooseNeo4j(NO_URI, {
      start: 'store',
      dataDir,
      heap: '512m',
      pageCache: '64m',
      progress: () => undefined,
    });
    await expect(third).rejects.toThrow(`The store ${join(dataDir, 'neo4j')} is locked by another Neo4j process`);
    await rename(`${localNeo4jRecordFile(dataDir)}.aside`, localNeo4jRecordFile(dataDir));

    await started.close();
    started = undefined;
    expect(existsSync(localNeo4jRecordFile(dataDir))).toBe(false);
    const after = await npmRun('query', ['coverage-gaps'], dataDir);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain(
      'threadline query needs a running Neo4j: NEO4J_URI is not set, and no local Neo4j of `npm start` runs',
    );
    expect(after.stderr).toContain('`npm start`');
  }, 240_000);

  it('is not used when the process it names has died', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    await writeLocalNeo4jRecord(dataDir, {
      uri: 'bolt://127.0.0.1:1',
      pid: gone.pid!,
      startedAt: '2026-01-01T00:00:00.000Z',
      storeDir: join(dataDir, 'neo4j'),
      version: 'x',
      auth: false,
    });
    const audit = await npmRun('audit', [], dataDir);
    expect(audit.code).toBe(2);
    expect(audit.stderr).toContain(`no longer runs`);
    expect(audit.stderr).toContain(`pid ${gone.pid}`);
    const exported = await npmRun('export', ['--tenant', 'local'], dataDir);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toContain('threadline export needs a running Neo4j');
  }, 120_000);

  it('asks for the password when npm start was given one', async () => {
    await writeLocalNeo4jRecord(dataDir, {
      uri: 'bolt://127.0.0.1:1',
      pid: process.pid,
      startedAt: new Date().toISOString(),
      storeDir: join(dataDir, 'neo4j'),
      version: 'x',
      auth: true,
    });
    await expect(chooseNeo4j(NO_URI, { start: 'none', dataDir, tool: 'npm run query' })).rejects.toThrow(
      /set NEO4J_PASSWORD/,
    );
    const found = await chooseNeo4j(
      { ...NO_URI, password: 'secret' },
      { start: 'none', dataDir, tool: 'npm run query' },
    );
    expect(found).toMatchObject({ source: 'running', connection: { uri: 'bolt://127.0.0.1:1', password: 'secret' } });
  });
});
