/**
 * `threadline export --thread ID [--tenant T] [--out FILE]` or `threadline export --tenant T [--out FILE]`:
 * writes a Cypher script that recreates that lineage in an empty Neo4j 5 (Desktop, Aura) for Bloom; see
 * docs/bloom.md. It reads the database named by NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE),
 * else the local Neo4j of a running `threadline start`, and never starts a Neo4j itself. Without --out the script goes to stdout.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { SINGLE_TENANT } from '../src/config.js';
import { ExportError, exportLineage } from '../src/export/cypherScript.js';
import { connectConfiguredNeo4j } from './configuredNeo4j.js';

const USAGE = `Usage: threadline export --thread ID [--tenant TENANT] [--out FILE]
       threadline export --tenant TENANT [--out FILE]

  --thread ID      export one thread: the thread, its runs, facts, checkpoints, provider threads,
                   handoffs and the transfers into and out of it
  --tenant TENANT  the tenant (default "${SINGLE_TENANT}" with --thread); alone: every thread of it,
                   forks and subagent threads included
  --out FILE       write the script there instead of stdout

Reads the Neo4j named by NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD and NEO4J_DATABASE; without
NEO4J_URI, the local Neo4j of a running \`threadline start\`.`;

async function main(): Promise<number> {
  let values: { thread?: string; tenant?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        thread: { type: 'string' },
        tenant: { type: 'string' },
        out: { type: 'string' },
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
  if (values.thread === undefined && values.tenant === undefined) {
    console.error(`Name a thread (--thread) or a tenant (--tenant).\n\n${USAGE}`);
    return 2;
  }

  const neo4j = await connectConfiguredNeo4j('threadline export');
  if ('problem' in neo4j) {
    console.error(neo4j.problem);
    return 2;
  }
  const { driver, config } = neo4j;
  if (values.thread !== undefined && values.tenant === undefined && config.apiKeys.size > 0) {
    await driver.close();
    console.error('THREADLINE_API_KEYS is set, so threads belong to named tenants: pass --tenant with --thread.');
    return 2;
  }
  const tenant = values.tenant ?? SINGLE_TENANT;

  try {
    const result = await exportLineage(
      driver,
      { tenant, ...(values.thread !== undefined ? { threadId: values.thread } : {}) },
      { database: config.neo4j.database },
    );
    if (values.out !== undefined) {
      await mkdir(dirname(values.out), { recursive: true });
      await writeFile(values.out, result.script, 'utf8');
    } else {
      process.stdout.write(result.script);
    }
    const what =
      values.thread !== undefined
        ? `thread ${values.thread}`
        : `${result.threadIds.length} threads of tenant ${tenant}`;
    console.error(
      `Exported ${what}: ${result.nodes} nodes, ${result.relationships} relationships${values.out !== undefined ? ` to ${values.out}` : ''}.`,
    );
    return 0;
  } finally {
    await driver.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof ExportError ? error.message : error);
    process.exitCode = 1;
  },
);
