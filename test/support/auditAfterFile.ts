// After every integration file, the whole shared graph must satisfy every invariant of
// cypher/audit/. Files run in parallel and each mutation is one transaction, so whatever another
// file has committed meanwhile must hold too: a violation is a violation, whoever wrote it.
import { afterAll, inject } from 'vitest';
import { describeViolations, runAudit } from '../../src/graph/audit.js';
import { createDriver } from '../../src/graph/driver.js';

afterAll(async () => {
  const neo4j = inject('neo4j');
  const driver = createDriver(neo4j);
  try {
    const violations = await runAudit(driver, neo4j.database);
    if (violations.length > 0) {
      throw new Error(
        `The invariant audit after this file found ${violations.length} violation(s):\n${describeViolations(violations)}`,
      );
    }
  } finally {
    await driver.close();
  }
});
