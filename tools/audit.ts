/**
 * `threadline audit`: checks every invariant of cypher/audit/*.cypher against the Neo4j named by
 * NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE), else the local Neo4j of a running
 * `threadline start` (tools/configuredNeo4j.ts), across all tenants, and prints the
 * violations grouped by invariant. Exit 0 when every invariant holds, 1 when any is violated, 2 when
 * the audit could not run. It only reads, and can run beside a live service: a violation is
 * reported only when it is seen again on a second and third reading (src/graph/audit.ts).
 */
import { AUDIT_INVARIANTS, describeViolations, runAudit } from '../src/graph/audit.js';
import { connectConfiguredNeo4j } from './configuredNeo4j.js';

async function main(): Promise<number> {
  const neo4j = await connectConfiguredNeo4j('threadline audit');
  if ('problem' in neo4j) {
    console.error(neo4j.problem);
    return 2;
  }
  const { driver, connection, config } = neo4j;
  try {
    const violations = await runAudit(driver, config.neo4j.database);
    if (violations.length === 0) {
      console.log(
        `audit: clean, ${AUDIT_INVARIANTS.length} invariants hold in database ${config.neo4j.database} at ${connection.uri}`,
      );
      return 0;
    }
    console.log(describeViolations(violations));
    const invariants = new Set(violations.map((violation) => violation.invariant)).size;
    console.log(
      `audit: ${violations.length} violation${violations.length === 1 ? '' : 's'} of ${invariants} of ${AUDIT_INVARIANTS.length} invariants`,
    );
    return 1;
  } catch (error) {
    console.error(`threadline audit: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  } finally {
    await driver.close();
  }
}

process.exitCode = await main();
