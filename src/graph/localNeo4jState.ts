// While `npm start` runs the local Neo4j, <dataDir>/neo4j.json says where it listens, so that the
// command-line tools (npm run query, export, audit) find it without NEO4J_URI: its Bolt port is a
// new free one at every start. The file is written when the local Neo4j is ready and removed when it
// stops cleanly; one left behind by a process that died is recognised by its pid and not used.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface LocalNeo4jRecord {
  /** The Bolt URI, bolt://127.0.0.1:<port>. */
  uri: string;
  /** The Neo4j (Java) process. */
  pid: number;
  /** ISO date-time of the start. */
  startedAt: string;
  storeDir: string;
  version: string;
  /** Started with a password (NEO4J_PASSWORD): a client needs the same one. */
  auth: boolean;
}

/** The record's path, for a data directory given as THREADLINE_DATA_DIR is (relative to the working directory). */
export function localNeo4jRecordFile(dataDir: string): string {
  return path.resolve(dataDir, 'neo4j.json');
}

export async function writeLocalNeo4jRecord(dataDir: string, record: LocalNeo4jRecord): Promise<void> {
  const file = localNeo4jRecordFile(dataDir);
  await mkdir(path.dirname(file), { recursive: true });
  // Written aside and renamed, so that a reader never sees half a file.
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(record, null, 2)}\n`);
  await rename(partial, file);
}

/** Removes the record if it still describes the process `pid` (a newer start may have replaced it). */
export async function removeLocalNeo4jRecord(dataDir: string, pid: number): Promise<void> {
  const found = await readLocalNeo4jRecord(dataDir);
  if (found?.record.pid === pid) await rm(localNeo4jRecordFile(dataDir), { force: true });
}

/** The record, and whether its process is still alive; null when there is none or it cannot be read. */
export async function readLocalNeo4jRecord(
  dataDir: string,
): Promise<{ record: LocalNeo4jRecord; alive: boolean } | null> {
  let record: LocalNeo4jRecord;
  try {
    record = JSON.parse(await readFile(localNeo4jRecordFile(dataDir), 'utf8')) as LocalNeo4jRecord;
  } catch {
    return null;
  }
  if (typeof record.uri !== 'string' || !Number.isInteger(record.pid)) return null;
  return { record, alive: isAlive(record.pid) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, but belongs to another user
  }
}
