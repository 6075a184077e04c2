/**
 * `npm run bloom:perspective`: writes docs/bloom-perspective.json, the Neo4j Bloom perspective built from
 * cypher/bloom/ (src/export/bloomPerspective.ts). `-- --check` writes nothing and exits 1 when the file
 * differs from what would be written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  bloomPerspective,
  bloomQueries,
  PERSPECTIVE_FILE,
  perspectiveFileText,
} from '../src/export/bloomPerspective.js';
import { projectRoot } from '../src/graph/projectRoot.js';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { check: { type: 'boolean' } }, allowPositionals: false });
  const path = join(projectRoot(), PERSPECTIVE_FILE);
  const text = perspectiveFileText(bloomPerspective(bloomQueries()));
  if (values.check) {
    const current = await readFile(path, 'utf8').catch(() => '');
    if (current === text) return 0;
    console.error(`${PERSPECTIVE_FILE} is out of date with cypher/bloom/: run npm run bloom:perspective`);
    return 1;
  }
  await writeFile(path, text);
  console.log(`wrote ${PERSPECTIVE_FILE}`);
  return 0;
}

process.exitCode = await main();
