/**
 * Backups of a Neo4j store with Neo4j's own dump and load (`neo4j-admin database dump` and `load`,
 * run from the local Neo4j's jars, src/graph/localNeo4j.ts): a byte-for-byte archive of the database
 * `neo4j` (the graph; users and the rest of the system database are not in it). Neo4j Community dumps
 * a database only while no Neo4j has it open, so a backup is consistent by construction: it holds
 * exactly what was committed when Neo4j last stopped, and every write acknowledged before then.
 *
 * A store is a Neo4j home: the local Neo4j's is THREADLINE_DATA_DIR/neo4j; a Neo4j server's home on
 * this machine works the same way. The dump format is Neo4j's, so a dump of either loads into the
 * other (same Neo4j version or newer) with these functions or with neo4j-admin itself.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { AuditViolation } from './audit.js';
import { runAudit } from './audit.js';
import { createDriver } from './driver.js';
import { runNeo4jAdmin, startLocalNeo4j } from './localNeo4j.js';
import { present } from '../domain/errors.js';

const BACKUP_DATABASE = 'neo4j';

export class StoreBackupError extends Error {}

/** Whether `home` holds the database (its store directory exists). */
function holdsDatabase(home: string): boolean {
  return existsSync(path.join(home, 'data', 'databases', BACKUP_DATABASE));
}

/** What neo4j-admin said, without its usage text: the line that says what went wrong. */
function adminFailure(what: string, error: unknown): StoreBackupError {
  const output = error instanceof Error ? error.message : String(error);
  const inUse = /in use|currently in use|lock/i.test(output);
  return new StoreBackupError(
    inUse
      ? `${what}: the database is in use. Neo4j Community dumps and loads only a stopped database: stop the service (or the Neo4j server) that has it open, then try again.\n${output}`
      : `${what}:\n${output}`,
  );
}

/**
 * Dumps the database of the stopped store `home` into the file `to` (written under a temporary name
 * beside it, then renamed: a file at `to` is always a whole dump). Refuses a store in use.
 */
export async function dumpStore(opts: {
  home: string;
  to: string;
  replace?: boolean;
}): Promise<{ file: string; bytes: number }> {
  const home = path.resolve(opts.home);
  const file = path.resolve(opts.to);
  if (!holdsDatabase(home))
    throw new StoreBackupError(
      `No Neo4j database "${BACKUP_DATABASE}" under ${home} (looked for data/databases/${BACKUP_DATABASE}).`,
    );
  if (existsSync(file) && !opts.replace)
    throw new StoreBackupError(`${file} exists; choose another file or replace it.`);
  const staging = path.join(path.dirname(file), `.${path.basename(file)}.tmp-${process.pid}-${Date.now()}`);
  await mkdir(staging, { recursive: true });
  try {
    try {
      await runNeo4jAdmin(home, ['database', 'dump', BACKUP_DATABASE, `--to-path=${staging}`]);
    } catch (error) {
      throw adminFailure(`Could not dump ${home}`, error);
    }
    await rename(path.join(staging, `${BACKUP_DATABASE}.dump`), file);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { file, bytes: (await stat(file)).size };
}

/**
 * Loads the dump `from` as the database of the stopped store `home` (created when missing). A store
 * that holds the database already is refused unless `replace`. Refuses a store in use.
 */
export async function loadStore(opts: { from: string; home: string; replace?: boolean }): Promise<void> {
  const home = path.resolve(opts.home);
  const file = path.resolve(opts.from);
  if (!existsSync(file) || !(await stat(file)).isFile()) throw new StoreBackupError(`No dump file at ${file}.`);
  if (holdsDatabase(home) && !opts.replace) {
    throw new StoreBackupError(
      `${home} already holds a database "${BACKUP_DATABASE}"; restoring replaces it, so say so (--force), or restore into an empty directory.`,
    );
  }
  // neo4j-admin reads <database>.dump from a directory: a link to the file, whatever its name.
  const staging = path.join(home, `.restore-${process.pid}-${Date.now()}`);
  await mkdir(staging, { recursive: true });
  try {
    await symlink(file, path.join(staging, `${BACKUP_DATABASE}.dump`));
    try {
      await runNeo4jAdmin(home, [
        'database',
        'load',
        BACKUP_DATABASE,
        `--from-path=${staging}`,
        `--overwrite-destination=${opts.replace ? 'true' : 'false'}`,
      ]);
    } catch (error) {
      throw adminFailure(`Could not load ${file} into ${home}`, error);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export interface StoreCheck {
  /** Nodes per label (a node with several labels counts under each). */
  nodes: Record<string, number>;
  relationships: number;
  /** Rows of the invariant audit (cypher/audit/); none for a good store. */
  violations: AuditViolation[];
}

/**
 * Checks the stopped store `home`: Neo4j's consistency checker on its files, then, in a local Neo4j
 * opened on it for the purpose, the invariant audit and what it holds. Rejects when the files are not
 * consistent; the audit's violations are returned.
 */
export async function checkStore(opts: { home: string }): Promise<StoreCheck> {
  const home = path.resolve(opts.home);
  try {
    await runNeo4jAdmin(home, [
      'database',
      'check',
      BACKUP_DATABASE,
      '--max-off-heap-memory=256m',
      `--report-path=${path.join(home, 'logs')}`,
    ]);
  } catch (error) {
    throw adminFailure(`The consistency check of ${home} failed`, error);
  }
  const neo4j = await startLocalNeo4j({ storeDir: home, heap: '512m', pageCache: '128m' });
  try {
    const driver = createDriver({ uri: neo4j.uri, user: 'neo4j', password: null, database: BACKUP_DATABASE });
    try {
      const nodes = await driver.executeQuery(
        'MATCH (node) UNWIND labels(node) AS label RETURN label, count(*) AS nodes ORDER BY label',
        {},
        { database: BACKUP_DATABASE },
      );
      const relationships = await driver.executeQuery(
        'MATCH ()-[relationship]->() RETURN count(relationship) AS relationships',
        {},
        { database: BACKUP_DATABASE },
      );
      return {
        nodes: Object.fromEntries(
          nodes.records.map((record) => [record.get('label') as string, Number(record.get('nodes'))]),
        ),
        relationships: Number(present(relationships.records[0], 'relationship count').get('relationships')),
        violations: await runAudit(driver, BACKUP_DATABASE),
      };
    } finally {
      await driver.close();
    }
  } finally {
    await neo4j.stop();
  }
}

/** One line for operators: what a checked store holds and whether the audit is clean. */
export function describeStoreCheck(check: StoreCheck): string {
  const nodes =
    Object.entries(check.nodes)
      .map(([label, count]) => `${count} ${label}`)
      .join(', ') || 'no nodes';
  return `files consistent; ${nodes}; ${check.relationships} relationships; invariant audit ${check.violations.length === 0 ? 'clean' : `${check.violations.length} violations`}`;
}
