// What threadline backup and threadline restore share: the store they work on (which must be stopped),
// the check of a store, and how they end.
import path from 'node:path';
import { ConfigError, type Config } from '../src/config.js';
import { describeViolations } from '../src/graph/audit.js';
import { readLocalNeo4jRecord } from '../src/graph/localNeo4jState.js';
import { checkStore, describeStoreCheck, StoreBackupError } from '../src/graph/storeBackup.js';

/**
 * The Neo4j home to `verb` (back up, restore): `store`, else the local Neo4j's own, which npm start
 * must not be running. `elsewhere` tells what to do when NEO4J_URI names another Neo4j.
 */
export async function stoppedStoreHome(
  config: Config,
  store: string | undefined,
  verb: string,
  elsewhere: string,
): Promise<{ home: string } | { problem: string }> {
  if (config.neo4j.uri !== null && store === undefined) {
    return {
      problem: `NEO4J_URI is set, so the service does not use the local Neo4j. ${elsewhere} See docs/reliability.md, "Backups".`,
    };
  }
  const home = store ?? path.join(config.dataDir, 'neo4j');
  const running = store === undefined ? await readLocalNeo4jRecord(config.dataDir) : null;
  if (running?.alive) {
    return {
      problem:
        `npm start is running the local Neo4j on ${path.resolve(home)} (pid ${running.record.pid}, since ${running.record.startedAt}). ` +
        `Neo4j Community dumps and loads only a stopped database: stop npm start (Ctrl-C), ${verb}, then start it again.`,
    };
  }
  return { home };
}

/** Neo4j's consistency check, the invariant audit and what the store holds, printed; 1 on a violation. */
export async function reportStoreCheck(home: string): Promise<number> {
  const check = await checkStore({ home });
  console.log(`Checked: ${describeStoreCheck(check)}`);
  if (check.violations.length === 0) return 0;
  console.log(describeViolations(check.violations));
  return 1;
}

/** Runs a command's main: its exit code, or 2 with the message of a refusal it could not go past. */
export function runStoreCommand(main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof ConfigError || error instanceof StoreBackupError ? error.message : error);
      process.exitCode = 2;
    },
  );
}
