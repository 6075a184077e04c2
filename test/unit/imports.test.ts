import { describe, expect, it } from 'vitest';
import { ThreadlineError } from '../../src/domain/errors.js';
import {
  checkImportedRuns,
  importKeyOf,
  importedRunAction,
  importedRunPlan,
  type ImportedRunInput,
} from '../../src/domain/imports.js';
import { graphqlEndpoint } from '../../client/index.js';
import { viewerUrl } from '../../tools/demo.js';

const run = (sourceKey: string, startedAt: string, extra: Partial<ImportedRunInput> = {}): ImportedRunInput => ({
  sourceKey,
  sourceId: null,
  startedAt,
  completedAt: null,
  status: 'completed',
  model: null,
  userMessage: 'm',
  assistantMessage: null,
  error: null,
  facts: [],
  ...extra,
});

function refusal(runs: ImportedRunInput[]): string | undefined {
  try {
    checkImportedRuns(runs);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ThreadlineError);
    expect((error as ThreadlineError).code).toBe('BAD_USER_INPUT');
    return (error as ThreadlineError).details.field as string;
  }
}

describe('imported runs', () => {
  it('take the action the planner would have named: create for a provider thread that served nothing, reuse after its own run, else resume', () => {
    expect(importedRunAction([], 0)).toBe('create');
    expect(importedRunAction([], 4)).toBe('create');
    expect(importedRunAction([{ from: 1, to: 3 }], 3)).toBe('reuse');
    expect(importedRunAction([{ from: 1, to: 3 }], 6)).toBe('resume');
  });

  it('plan no handoff, naming the provider thread unless they created it', () => {
    expect(importedRunPlan('create', 'pt_1', 'imported from codex session s')).toEqual({
      decision: 'no_handoff',
      providerThreadAction: 'create',
      providerThreadId: null,
      handoffStrategy: null,
      coveredRunOrdinals: null,
      stalenessSignals: [],
      reasons: ['imported from codex session s'],
    });
    expect(importedRunPlan('resume', 'pt_1', 'r').providerThreadId).toBe('pt_1');
  });

  it('are known by provider, session and key, whatever characters those hold', () => {
    expect(importKeyOf('codex', 'a b', 'c')).not.toBe(importKeyOf('codex', 'a', 'b c'));
    expect(JSON.parse(importKeyOf('codex', 's"1', 'k\n2'))).toEqual(['codex', 's"1', 'k\n2']);
  });

  it('come oldest first, each turn once, ending after they start, with an error only when they did not complete', () => {
    expect(
      refusal([
        run('a', '2025-01-01T09:00:00.000Z'),
        run('b', '2025-01-01T09:00:00.000Z'),
        run('c', '2025-01-01T10:00:00.000Z'),
      ]),
    ).toBeUndefined();
    expect(refusal([run('a', '2025-01-01T10:00:00.000Z'), run('b', '2025-01-01T09:00:00.000Z')])).toBe(
      'runs[1].startedAt',
    );
    expect(refusal([run('a', '2025-01-01T09:00:00.000Z'), run('a', '2025-01-01T10:00:00.000Z')])).toBe(
      'runs[1].sourceKey',
    );
    expect(refusal([run('a', '2025-01-01T09:00:00.000Z', { completedAt: '2025-01-01T08:59:59.999Z' })])).toBe(
      'runs[0].completedAt',
    );
    expect(refusal([run('a', '2025-01-01T09:00:00.000Z', { error: 'boom' })])).toBe('runs[0].error');
    expect(refusal([run('a', '2025-01-01T09:00:00.000Z', { status: 'failed', error: 'boom' })])).toBeUndefined();
  });
});

describe('THREADLINE_URL and npm run import --url', () => {
  it('take the service base URL or its GraphQL endpoint', () => {
    expect(graphqlEndpoint('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000/graphql');
    expect(graphqlEndpoint('http://127.0.0.1:4000/')).toBe('http://127.0.0.1:4000/graphql');
    expect(graphqlEndpoint('https://threadline.example.test/graphql')).toBe('https://threadline.example.test/graphql');
    expect(graphqlEndpoint('https://threadline.example.test/graphql/')).toBe('https://threadline.example.test/graphql');
  });

  it('give the same viewer URL either way', () => {
    const viewer = 'http://127.0.0.1:4000/lineage/a%20b';
    expect(viewerUrl('http://127.0.0.1:4000', 'a b')).toBe(viewer);
    expect(viewerUrl('http://127.0.0.1:4000/graphql', 'a b')).toBe(viewer);
  });
});
