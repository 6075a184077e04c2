import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../graph/projectRoot.js';

const SCHEMA_DIR = join(projectRoot(), 'schema');

/** The SDL of every module under schema/, in a stable order (base.graphql first). */
export function loadTypeDefs(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.graphql'))
    .sort((a, b) => (a === 'base.graphql' ? -1 : b === 'base.graphql' ? 1 : a.localeCompare(b)))
    .map((name) => readFileSync(join(SCHEMA_DIR, name), 'utf8'));
}
