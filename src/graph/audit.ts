// The invariant audit: each cypher/audit/<invariant>.cypher returns the rows that violate one
// invariant of the graph model, so an empty result means the invariant holds. Each takes $tenant:
// null audits every tenant, a tenant's name only the elements of that tenant.
import { setTimeout as delay } from 'node:timers/promises';
import neo4j, { type Driver, type ManagedTransaction } from 'neo4j-driver';
import { LINEAGE_RULE_PARAMETERS } from '../domain/standing.js';
import { cypher, queryName, queryNames } from './queries.js';
import { anyRow, parseRow } from './rows.js';
import { plain, toParameters } from './values.js';

export interface AuditViolation {
  invariant: string;
  row: Record<string, unknown>;
}

export const AUDIT_INVARIANTS: readonly string[] = queryNames()
  .filter((name) => name.startsWith('audit/'))
  .map((name) => name.slice('audit/'.length));

/** The invariant in plain words: the comment line each audit file opens with. */
function invariantStatement(invariant: string): string {
  const [opening = ''] = cypher(queryName(`audit/${invariant}`)).split('\n', 1);
  return opening.replace(/^\/\/\s*/, '');
}

/** Every tenant, or one: what an audit reads. */
export type AuditScope = { tenant: string | null };

/**
 * One reading of the given invariants in one transaction of the driver's (managed, or explicit to
 * see its own uncommitted writes). Not a Graph's: a Graph gives every statement its own tenant, and
 * the audit of every tenant has none.
 */
export async function auditPass(
  transaction: Pick<ManagedTransaction, 'run'>,
  { tenant }: AuditScope,
  invariants: readonly string[] = AUDIT_INVARIANTS,
): Promise<AuditViolation[]> {
  const parameters = toParameters({ ...LINEAGE_RULE_PARAMETERS, tenant });
  const violations: AuditViolation[] = [];
  for (const invariant of invariants) {
    const statement = queryName(`audit/${invariant}`);
    const result = await transaction.run(cypher(statement), parameters);
    for (const record of result.records)
      violations.push({ invariant, row: parseRow(statement, anyRow, plain(record.toObject())) });
  }
  return violations;
}

const CONFIRMING_PASSES = 2;
const CONFIRMATION_DELAY_MS = 300;

/**
 * Keeps only the violations that every later pass reports again, row for row. Neo4j reads are
 * read-committed, not snapshots: an audit statement running beside writers can see one thread's
 * counters before a commit and its runs after it, and report a state no transaction ever
 * committed. Such a row does not come back once the writer has moved on; a committed violation does.
 */
export async function confirmedViolations(
  pass: (invariants: readonly string[]) => Promise<AuditViolation[]>,
): Promise<AuditViolation[]> {
  let violations = await pass(AUDIT_INVARIANTS);
  for (let round = 0; round < CONFIRMING_PASSES && violations.length > 0; round++) {
    await delay(CONFIRMATION_DELAY_MS);
    const seenAgain = new Set(
      (await pass([...new Set(violations.map((violation) => violation.invariant))])).map(keyOf),
    );
    violations = violations.filter((violation) => seenAgain.has(keyOf(violation)));
  }
  return violations;
}

/** Every invariant over the whole database (every tenant), or over one tenant's elements. */
export async function runAudit(
  driver: Driver,
  database: string,
  scope: AuditScope = { tenant: null },
): Promise<AuditViolation[]> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    return await confirmedViolations((invariants) =>
      session.executeRead((transaction) => auditPass(transaction, scope, invariants)),
    );
  } finally {
    await session.close();
  }
}

/** Violations grouped by invariant, one line per row, for operators and test failures. */
export function describeViolations(violations: readonly AuditViolation[]): string {
  const byInvariant = new Map<string, AuditViolation[]>();
  for (const violation of violations)
    byInvariant.set(violation.invariant, [...(byInvariant.get(violation.invariant) ?? []), violation]);
  return [...byInvariant]
    .map(([invariant, rows]) =>
      [
        `${invariant}: ${rows.length} violation${rows.length === 1 ? '' : 's'}`,
        `  (${invariantStatement(invariant)})`,
        ...rows.map((violation) => `  ${JSON.stringify(violation.row)}`),
      ].join('\n'),
    )
    .join('\n');
}

function keyOf(violation: AuditViolation): string {
  return JSON.stringify([violation.invariant, violation.row]);
}
