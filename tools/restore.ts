/**
 * `threadline restore --from FILE [--store DIR] [--force] [--no-check]`: loads a dump made by
 * `threadline backup` (or by `neo4j-admin database dump`) as the graph of the local Neo4j's store,
 * THREADLINE_DATA_DIR/neo4j, or of the stopped Neo4j home DIR, then checks it: Neo4j's consistency
 * check, the invariant audit, what it holds. A store that holds a graph already is replaced only with
 * --force. See docs/reliability.md, "Backups".
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { loadStore } from '../src/graph/storeBackup.js';
import { reportStoreCheck, runStoreCommand, stoppedStoreHome } from './storeCommand.js';

const USAGE = `Usage: threadline restore --from FILE [--store DIR] [--force] [--no-check]

  --from FILE  the dump to restore
  --store DIR  the Neo4j home to restore into (default: <THREADLINE_DATA_DIR>/neo4j, the local
               Neo4j's store); created when missing
  --force      replace the graph the store holds (without it, a store with a graph is refused)
  --no-check   skip the check after loading (consistency check, invariant audit)

The store must be stopped: stop the service (threadline start) or the Neo4j server that has it open first.`;

async function main(): Promise<number> {
  let values: { from?: string; store?: string; force?: boolean; 'no-check'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        from: { type: 'string' },
        store: { type: 'string' },
        force: { type: 'boolean' },
        'no-check': { type: 'boolean' },
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
  if (values.from === undefined) {
    console.error(`Name the dump to restore (--from).\n\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const store = await stoppedStoreHome(
    config,
    values.store,
    'restore',
    'Restore into that Neo4j where it runs: with --store pointing at its home on this machine (stopped), or with `neo4j-admin database load` on its host.',
  );
  if ('problem' in store) {
    console.error(store.problem);
    return 2;
  }
  const { home } = store;
  const started = Date.now();
  await loadStore({ from: values.from, home, replace: values.force ?? false });
  console.log(
    `Restored ${path.resolve(values.from)} into ${path.resolve(home)} (${((Date.now() - started) / 1000).toFixed(1)} s).`,
  );
  if (values['no-check']) return 0;
  return reportStoreCheck(home);
}

runStoreCommand(main);
