// The query registry (src/graph/queries.ts): its fragments (a step several statements take, written
// once in a *.fragment.cypher file and taken in by an INCLUDE line), and the compact text it sends.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isInt } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { LINEAGE_RULE_PARAMETERS } from '../../../src/domain/standing.js';
import { projectRoot } from '../../../src/graph/projectRoot.js';
import { compact, cypher, parametersNamed, queryNames, sentCypher, withFragments } from '../../../src/graph/queries.js';
import { statementParameters } from '../../../src/graph/transactions.js';

const fragments = new Map([['changes/append', 'CALL (thread) {\n  SET thread.seen = true\n}\n']]);

describe('withFragments', () => {
  it('replaces each INCLUDE line with its fragment and leaves every other line as it was', () => {
    const text =
      'MATCH (thread:Thread)\n  INCLUDE changes/append\nRETURN thread\n// INCLUDE changes/append, in words\n';
    expect(withFragments(text, fragments)).toBe(
      'MATCH (thread:Thread)\nCALL (thread) {\n  SET thread.seen = true\n}\nRETURN thread\n// INCLUDE changes/append, in words\n',
    );
  });

  it('refuses a fragment that does not exist, naming its file', () => {
    expect(() => withFragments('MATCH (n)\nINCLUDE changes/missing\n', fragments)).toThrow(
      'No Cypher fragment cypher/changes/missing.fragment.cypher',
    );
  });
});

describe('compact', () => {
  it('drops comment lines, indentation and blank lines, and keeps every other line whole', () => {
    const text =
      "// Why it is so.\nMATCH (run:Run)\n\n  // Why this step.\n  WHERE run.url <> 'http://x // y'\n\tRETURN run\n";
    expect(compact(text)).toBe("MATCH (run:Run)\nWHERE run.url <> 'http://x // y'\nRETURN run");
  });
});

describe('the registry', () => {
  const appended = readFileSync(join(projectRoot(), 'cypher/changes/append.fragment.cypher'), 'utf8').trimEnd();

  it('names no fragment as a statement, and leaves no INCLUDE line in any statement', () => {
    expect(queryNames().filter((name) => name.includes('fragment'))).toEqual([]);
    expect(queryNames()).not.toContain('changes/append');
    expect(queryNames().filter((name) => /^\s*INCLUDE /m.test(cypher(name)))).toEqual([]);
  });

  it('writes the change feed step once, into every statement that appends to the feed', () => {
    const taking = queryNames().filter((name) => cypher(name).includes(appended));
    expect(taking).toEqual(['changes/record', 'runs/create', 'runs/finish']);
  });

  it('sends each statement compact, and no statement spreads a string or a name over lines (compact trims lines)', () => {
    const names = queryNames();
    const uncompact = names.filter((name) => /^(\s|\/\/|$)/m.test(sentCypher(name)));
    expect(uncompact).toEqual([]);
    const unbalanced = names.flatMap((name) =>
      sentCypher(name)
        .split('\n')
        .filter((line) => ["'", '"', '`'].some((quote) => line.replace(/\\./g, '').split(quote).length % 2 === 0))
        .map((line) => `${name}: ${line}`),
    );
    expect(unbalanced).toEqual([]);
  });
});

describe('what a statement is sent', () => {
  it('names the parameters of its fragments too', () => {
    const named = parametersNamed('runs/finish');
    for (const name of ['tenant', 'runId', 'facts', 'changeKind', 'changesKept']) expect(named).toContain(name);
  });

  it('gets its own parameters as Neo4j stores them, the tenant, and the lineage rules it names alone', () => {
    const sent = statementParameters('tenant-a', 'planner/snapshot', { threadId: 'thread-1', runWindow: 6 });
    expect(sent.tenant).toBe('tenant-a');
    expect(sent.threadId).toBe('thread-1');
    expect(isInt(sent.runWindow)).toBe(true);
    const rules = Object.keys(LINEAGE_RULE_PARAMETERS).filter((name) => name in sent);
    expect(rules).toEqual(['subagentWorkKinds']);
    expect(sent.subagentWorkKinds).toEqual([...LINEAGE_RULE_PARAMETERS.subagentWorkKinds]);
  });

  it('sends every statement each rule its text names, and no other', () => {
    for (const name of queryNames()) {
      const sent = statementParameters('tenant-a', name, {});
      for (const rule of Object.keys(LINEAGE_RULE_PARAMETERS))
        expect(rule in sent, `${name}: ${rule}`).toBe(new RegExp(`\\$${rule}\\b`).test(sentCypher(name)));
    }
  });
});
