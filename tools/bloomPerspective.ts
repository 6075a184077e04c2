/**
 * `npm run bloom:perspective`: writes docs/bloom-perspective.json, the Neo4j Bloom perspective built from
 * cypher/bloom/ (src/export/bloomPerspective.ts). test/unit/bloomPerspective.test.ts fails while the
 * committed file differs from what this writes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  bloomPerspective,
  bloomQueries,
  PERSPECTIVE_FILE,
  perspectiveFileText,
} from '../src/export/bloomPerspective.js';
import { projectRoot } from '../src/graph/projectRoot.js';

const USAGE = `Usage: npm run bloom:perspective

Writes ${PERSPECTIVE_FILE}, the Neo4j Bloom perspective built from cypher/bloom/. Takes no options.`;

/** Whether to write the file; otherwise the usage (asked for, or after a wrong argument) is printed. */
function wantsFile(argv: string[]): boolean {
  try {
    const { values } = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } } });
    if (!values.help) return true;
    console.log(USAGE);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
  }
  return false;
}

if (wantsFile(process.argv.slice(2))) {
  await writeFile(join(projectRoot(), PERSPECTIVE_FILE), perspectiveFileText(bloomPerspective(bloomQueries())));
  console.log(`wrote ${PERSPECTIVE_FILE}`);
}
