// docs/architecture.md stays true to the tree: every file its tables name by path exists.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';

const root = projectRoot();
const page = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

/** Backticked repository paths (a folder and a file name with an extension) in the page's table rows. */
function pathsInTables(markdown: string): string[] {
  const rows = markdown.split('\n').filter((line) => line.startsWith('|'));
  const quoted = rows.flatMap((row) => [...row.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!));
  return [...new Set(quoted.filter((text) => /^[\w.-]+(\/[\w.-]+)+\.\w+$/.test(text)))];
}

describe('docs/architecture.md', () => {
  const paths = pathsInTables(page);

  it('names files in its tables', () => {
    expect(paths.length).toBeGreaterThan(10);
  });

  it('names only files that exist', () => {
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});
