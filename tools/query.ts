/**
 * `threadline query <name> [key=value ...] [--tenant T] [--json | --csv]`: runs
 * cypher/analytics/<name>.cypher against the configured Neo4j (NEO4J_URI, NEO4J_USER,
 * NEO4J_PASSWORD, NEO4J_DATABASE; without NEO4J_URI, the local Neo4j of a running `threadline start`),
 * read-only and scoped to one tenant (default `local`, the single-tenant mode's), and prints the rows
 * as an aligned table (as wide as the terminal, else 100 columns; wider tables print one block per
 * row; the coverage matrix prints one column per provider thread), JSON or CSV.
 *
 * Values are parsed as JSON when they parse (10, true, null, [1,2], "\"42\"" for a string of
 * digits), else taken as strings. Parameters a query documents with a default may be left out.
 */
import { SINGLE_TENANT } from '../src/config.js';
import {
  ArgumentError,
  documentedParameters,
  formatCsv,
  formatTable,
  parseAssignments,
  resolveParameters,
  TABLE_VIEWS,
  TABLE_WIDTH,
  usageOf,
} from '../src/analytics/format.js';
import { connectConfiguredNeo4j } from './configuredNeo4j.js';
import { cypher, queryName } from '../src/graph/queries.js';
import { anyRow } from '../src/graph/rows.js';
import { Graph } from '../src/graph/transactions.js';
import { analyticsQueryNames, runAnalyticsQuery } from '../src/operations/analytics.js';

type Output = 'table' | 'json' | 'csv';

class UsageError extends Error {}

interface Invocation {
  name: string;
  tenant: string;
  output: Output;
  assignments: string[];
}

function usage(): string {
  const lines = analyticsQueryNames().map(
    (name) => `  ${name.padEnd(24)} ${usageOf(documentedParameters(cypher(queryName(`analytics/${name}`))))}`,
  );
  return [
    'Usage: threadline query <name> [key=value ...] [--tenant T] [--json | --csv]',
    '',
    "Queries (cypher/analytics/<name>.cypher; each file's header says what it answers):",
    ...lines,
    '',
    'from and to are ISO 8601 date-times, the window from inclusive and to exclusive, for example',
    '  threadline query staleness from=2026-01-01T00:00:00Z to=2026-02-01T00:00:00Z',
    '',
    'Reads the local Neo4j of a running `threadline start`, or the one NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD,',
    'NEO4J_DATABASE) names.',
  ].join('\n');
}

function parseArgs(argv: readonly string[]): Invocation | 'help' {
  let tenant = SINGLE_TENANT;
  let output: Output = 'table';
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return 'help';
    else if (arg === '--json') output = 'json';
    else if (arg === '--csv') output = 'csv';
    else if (arg === '--tenant') {
      const value = argv[++i];
      if (!value) throw new UsageError('--tenant needs a tenant id');
      tenant = value;
    } else if (arg.startsWith('--tenant=')) tenant = arg.slice('--tenant='.length);
    else if (arg.startsWith('--')) throw new UsageError(`Unknown option ${arg}`);
    else positional.push(arg);
  }
  const [name, ...assignments] = positional;
  if (!name) return 'help';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(tenant))
    throw new UsageError(`Bad tenant ${JSON.stringify(tenant)}: letters, digits, _ or -`);
  if (!analyticsQueryNames().includes(name)) {
    throw new UsageError(`Unknown query ${JSON.stringify(name)}. Available: ${analyticsQueryNames().join(', ')}`);
  }
  return { name, tenant, output, assignments };
}

async function main(argv: readonly string[]): Promise<number> {
  let invocation: Invocation | 'help';
  let params: Record<string, unknown>;
  try {
    invocation = parseArgs(argv);
    if (invocation === 'help') {
      console.log(usage());
      return argv.length === 0 ? 1 : 0;
    }
    params = resolveParameters(
      cypher(queryName(`analytics/${invocation.name}`)),
      parseAssignments(invocation.assignments),
    );
  } catch (error) {
    if (error instanceof UsageError || error instanceof ArgumentError) {
      console.error(`threadline query: ${error.message}`);
      return 1;
    }
    throw error;
  }

  const neo4j = await connectConfiguredNeo4j('threadline query');
  if ('problem' in neo4j) {
    console.error(neo4j.problem);
    return 1;
  }
  const { driver, config } = neo4j;
  try {
    const rows = await runAnalyticsQuery(
      new Graph(driver, config.neo4j.database, invocation.tenant),
      invocation.name,
      params,
      anyRow,
    );
    if (invocation.output === 'json') process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else if (invocation.output === 'csv') process.stdout.write(formatCsv(rows));
    else {
      const view = TABLE_VIEWS[invocation.name];
      // As wide as the terminal, or TABLE_WIDTH when the output is not one.
      const width = (process.stdout.isTTY && process.stdout.columns) || TABLE_WIDTH;
      process.stdout.write(formatTable(view ? view.view(rows) : rows, width));
      if (view && rows.length > 0) process.stdout.write(`${view.note}\n`);
    }
    return 0;
  } catch (error) {
    console.error(
      `threadline query: ${invocation.name} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  } finally {
    await driver.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
