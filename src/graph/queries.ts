// The query registry: every Cypher statement lives in cypher/<area>/<name>.cypher and is
// addressed by "<area>/<name>", a QueryName (generated from the files by `npm run codegen`).
// Statements take parameters only; nothing is built from input.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { QueryName } from './generated/queryNames.js';
import { projectRoot } from './projectRoot.js';

export type { QueryName };

const CYPHER_DIR = join(projectRoot(), 'cypher');

/**
 * A fragment (cypher/<area>/<name>.fragment.cypher) is a step several statements take, written once:
 * it is no statement of its own, and a statement takes it in with a line `INCLUDE <area>/<name>`.
 * Left unexpanded, that line is not Cypher, so it could not run unnoticed.
 */
const FRAGMENT_SUFFIX = '.fragment.cypher';
const INCLUDE_LINE = /^[ \t]*INCLUDE ([\w/-]+)[ \t]*$/gm;

/** `text` with each INCLUDE line replaced by its fragment; throws on a fragment that does not exist. */
export function withFragments(text: string, fragments: ReadonlyMap<string, string>): string {
  return text.replace(INCLUDE_LINE, (_, name: string) => {
    const fragment = fragments.get(name);
    if (fragment === undefined) throw new Error(`No Cypher fragment cypher/${name}${FRAGMENT_SUFFIX}`);
    return fragment.trimEnd();
  });
}

function loadAll(): Map<string, string> {
  const statements = new Map<string, string>();
  const fragments = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.cypher')) {
        const name = relative(CYPHER_DIR, path).split(sep).join('/');
        if (name.endsWith(FRAGMENT_SUFFIX))
          fragments.set(name.slice(0, -FRAGMENT_SUFFIX.length), readFileSync(path, 'utf8'));
        else statements.set(name.replace(/\.cypher$/, ''), readFileSync(path, 'utf8'));
      }
    }
  };
  walk(CYPHER_DIR);
  for (const [name, text] of statements) statements.set(name, withFragments(text, fragments));
  return statements;
}

const registry = loadAll();

function textOf(name: string): string {
  const text = registry.get(name);
  if (text === undefined) throw new Error(`No Cypher file cypher/${name}.cypher`);
  return text;
}

export function cypher(name: QueryName): string {
  return textOf(name);
}

/** A name built at run time (`audit/<invariant>`, a tool's argument) as a QueryName, if a file has it. */
export function queryName(name: string): QueryName {
  textOf(name);
  return name as QueryName;
}

export function queryNames(): QueryName[] {
  return [...registry.keys()].sort() as QueryName[];
}

/** Splits a migration file into its statements (separated by semicolons at line ends). */
export function statementsOf(name: QueryName): string[] {
  return cypher(name)
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*\/\/.*$/gm, '').trim())
    .filter(Boolean);
}
