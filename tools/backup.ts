/**
 * `threadline backup [--out FILE] [--store DIR] [--verify] [--force]`: a dump of the graph (the
 * database `neo4j`) of the local Neo4j's store, THREADLINE_DATA_DIR/neo4j (default .threadline/neo4j),
 * or of the stopped Neo4j home DIR, made by Neo4j's own dump (src/graph/storeBackup.ts). Neo4j
 * Community dumps only a stopped database: stop `threadline start` first, back up, start it again. See
 * docs/reliability.md, "Backups".
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { dumpStore, loadStore } from '../src/graph/storeBackup.js';
import { reportStoreCheck, runStoreCommand, stoppedStoreHome } from './storeCommand.js';

const USAGE = `Usage: threadline backup [--out FILE] [--store DIR] [--verify] [--force]

  --out FILE   where to write the dump (default: <THREADLINE_DATA_DIR>/backups/neo4j-<UTC time>.dump)
  --store DIR  the Neo4j home to dump (default: <THREADLINE_DATA_DIR>/neo4j, the local Neo4j's store)
  --verify     load the dump into a temporary store and check it there: Neo4j's consistency check,
               the invariant audit, what it holds
  --force      replace FILE if it exists

The store must be stopped: stop the service (threadline start) or the Neo4j server that has it open first.`;

async function main(): Promise<number> {
  let values: { out?: string; store?: string; verify?: boolean; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        out: { type: 'string' },
        store: { type: 'string' },
        verify: { type: 'boolean' },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  const store = await stoppedStoreHome(
    config,
    values.store,
    'back up',
    'Back up that Neo4j where it runs: with --store pointing at its home on this machine (stopped), with `neo4j-admin database dump` on its host, or with its own backups (Aura, Enterprise).',
  );
  if ('problem' in store) {
    console.error(store.problem);
    return 2;
  }
  const { home } = store;
  const out =
    values.out ?? path.join(config.dataDir, 'backups', `neo4j-${new Date().toISOString().replace(/[:.]/g, '-')}.dump`);
  await mkdir(path.dirname(path.resolve(out)), { recursive: true });
  const started = Date.now();
  const { file, bytes } = await dumpStore({ home, to: out, replace: values.force ?? false });
  console.log(
    `Backed up ${path.resolve(home)} to ${file} (${bytes} bytes, ${((Date.now() - started) / 1000).toFixed(1)} s).`,
  );
  if (!values.verify) return 0;

  const scratch = await mkdtemp(path.join(tmpdir(), 'threadline-backup-check-'));
  try {
    await loadStore({ from: file, home: scratch });
    return await reportStoreCheck(scratch);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

runStoreCommand(main);
