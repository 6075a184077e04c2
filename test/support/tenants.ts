// The tenants each test file writes under. Files run side by side on one Neo4j: a file that writes
// under tenants of its own, named after it, can have its own data audited after it
// (auditAfterFile.ts), and a violation there is that file's. The tenant a service without keys
// writes under (SINGLE_TENANT, 'local') is shared by every file that uses it: such a file says so.
import { randomBytes } from 'node:crypto';
import { relative } from 'node:path';
import { expect } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';

// A tenant is 1-64 letters, digits, _ or - (src/config.ts): room for the file's name, a random
// suffix that keeps two runs on one Neo4j apart, and a label for a file's further tenants.
const FILE_NAME_CHARS = 34;
const LABEL = /^[A-Za-z0-9_-]{1,20}$/;

interface FileTenants {
  own: string;
  written: Set<string>;
}

// By test file: with isolate off, a worker keeps this module from one file to the next.
const byFile = new Map<string, FileTenants>();

/** The test file running now, relative to the project (test/integration/x.test.ts). */
export function currentTestFile(): string {
  const path = expect.getState().testPath;
  if (!path) throw new Error('No test file is running: tenants belong to a test file');
  return relative(projectRoot(), path);
}

function tenantsOf(file: string): FileTenants {
  let tenants = byFile.get(file);
  if (!tenants) {
    const name = file
      .replace(/^test\//, '')
      .replace(/\.test\.ts$/, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .slice(-FILE_NAME_CHARS);
    tenants = { own: `${name}-${randomBytes(4).toString('hex')}`, written: new Set() };
    byFile.set(file, tenants);
  }
  return tenants;
}

/**
 * The running file's own tenant, or with a label one more of its tenants (`${own}-${label}`), for a
 * test of several tenants. Either is audited after the file.
 */
export function fileTenant(label?: string): string {
  const tenants = tenantsOf(currentTestFile());
  if (label === undefined) return writesUnder(tenants.own);
  if (!LABEL.test(label)) throw new Error(`A tenant label must match ${LABEL}, not ${label}`);
  return writesUnder(`${tenants.own}-${label}`);
}

/** Records that the running file writes under `tenant` (one not of its own, such as SINGLE_TENANT), to be audited after it. */
export function writesUnder(tenant: string): string {
  tenantsOf(currentTestFile()).written.add(tenant);
  return tenant;
}

/** Every tenant `file` said it writes under. */
export function tenantsWrittenBy(file: string): string[] {
  return [...tenantsOf(file).written];
}
