/**
 * `npm run bloom:perspective`: writes docs/bloom-perspective.json, the Neo4j Bloom perspective built from
 * cypher/bloom/ (src/export/bloomPerspective.ts). test/unit/bloomPerspective.test.ts fails while the
 * committed file differs from what this writes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  bloomPerspective,
  bloomQueries,
  PERSPECTIVE_FILE,
  perspectiveFileText,
} from '../src/export/bloomPerspective.js';
import { projectRoot } from '../src/graph/projectRoot.js';

await writeFile(join(projectRoot(), PERSPECTIVE_FILE), perspectiveFileText(bloomPerspective(bloomQueries())));
console.log(`wrote ${PERSPECTIVE_FILE}`);
