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

/**
 * A statement as sent: without its comment lines, indentation and blank lines. The comments explain
 * the files to people; sent with every run, they were four tenths of the text the service packs and
 * Neo4j decodes and hashes to find its cached plan (docs/benchmarks.md, the throughput run). Only
 * whole-line comments go: no statement spreads a string over lines, so trimming a line changes no value.
 */
export function compact(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');
}

/** Each statement as its file writes it, and as the service sends it. */
const registry = new Map([...loadAll()].map(([name, written]) => [name, { written, sent: compact(written) }]));

function entryOf(name: string): { written: string; sent: string } {
  const entry = registry.get(name);
  if (entry === undefined) throw new Error(`No Cypher file cypher/${name}.cypher`);
  return entry;
}

/** The statement as its file writes it, comments included: for people (the query tool, Bloom, the audit). */
export function cypher(name: QueryName): string {
  return entryOf(name).written;
}

/** The statement as the service sends it: compact. */
export function sentCypher(name: QueryName): string {
  return entryOf(name).sent;
}

const PARAMETER = /\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** The parameters a statement names ($name), fragments included. */
export function parametersNamed(name: QueryName): Set<string> {
  return new Set(Array.from(entryOf(name).sent.matchAll(PARAMETER), (match) => match[1] ?? ''));
}

/** A name built at run time (`audit/<invariant>`, a tool's argument) as a QueryName, if a file has it. */
export function queryName(name: string): QueryName {
  entryOf(name);
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
