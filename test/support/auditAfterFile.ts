// After every file on the graph, what it wrote must satisfy every invariant of cypher/audit/: the
// audit reads the file's own tenants (tenants.ts), so a violation fails the file that wrote it, not
// whichever file on the shared Neo4j happens to finish next. The whole graph is audited once, after
// the run (globalSetup.ts).
import { afterAll, inject } from 'vitest';
import { describeViolations, runAudit } from '../../src/graph/audit.js';
import { createDriver } from '../../src/graph/driver.js';
import { currentTestFile, tenantsWrittenBy } from './tenants.js';

afterAll(async () => {
  const file = currentTestFile();
  const neo4j = inject('neo4j');
  const driver = createDriver(neo4j);
  try {
    const found: string[] = [];
    for (const tenant of tenantsWrittenBy(file)) {
      const violations = await runAudit(driver, neo4j.database, { tenant });
      if (violations.length > 0)
        found.push(`tenant ${tenant}: ${violations.length} violation(s):\n${describeViolations(violations)}`);
    }
    if (found.length > 0)
      throw new Error(`The invariant audit after ${file} found, in what it wrote:\n${found.join('\n')}`);
  } finally {
    await driver.close();
  }
});
