// npm run eval:handoffs through the service: a few corpus cases imported with `npm run import`, the
// other provider's context read with previewRun at two budgets, scored against the raw files' truth;
// the scorer sees an item taken out of the delivered text or given a wrong state; --help starts nothing.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThreadlineClient } from '../../client/index.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { evaluateCase, type CaseResult } from '../../tools/eval/handoffs.js';
import { scoreHandoff, TIGHT_BUDGET } from '../../tools/eval/score.js';
import { settingsFile, startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const CORPUS = join(projectRoot(), 'test/fixtures/sessions/corpus');
const token = `eval-test-${uniqueId('k').slice(-24)}`;
const services: TestService[] = [];
let byBudget: { budget: string; url: string; client: ReturnType<typeof createThreadlineClient> }[];

beforeAll(async () => {
  // Its own tenant: the corpus' sessions may be imported by other tests on this graph too.
  const keys = { THREADLINE_API_KEYS: `${token}=${fileTenant()}` };
  const tight = settingsFile({
    providers: ['codex', 'claude'].map((id) => ({
      id,
      displayName: id,
      capabilities: { maxRecommendedHandoffChars: TIGHT_BUDGET },
    })),
  });
  for (const env of [keys, { ...keys, THREADLINE_PROVIDERS_FILE: tight }]) services.push(await startTestService(env));
  byBudget = services.map((t, i) => ({
    budget: i === 0 ? 'default' : String(TIGHT_BUDGET),
    url: t.service.url,
    client: createThreadlineClient({ url: t.service.url, apiKey: token }),
  }));
});
afterAll(async () => {
  for (const service of services) await service.close();
});

describe('eval:handoffs', () => {
  let lint: CaseResult;
  beforeAll(async () => {
    lint = await evaluateCase({ byBudget, token }, join(CORPUS, '04-codex-exec'), '04-codex-exec');
  }, 120_000);

  it('imports a case, previews a run on the other provider at both budgets, and scores it against the raw files', () => {
    expect(lint.error).toBeNull();
    expect(lint.provider).toBe('claude');
    expect(lint.truth.unresolvedFailures).toEqual([{ target: 'npm run lint', kind: 'command' }]);
    expect(lint.budgets.map((entry) => entry.budget)).toEqual(['default', String(TIGHT_BUDGET)]);
    for (const { text, length, score } of lint.budgets) {
      expect(text.length).toBe(length);
      expect(length).toBeGreaterThan(0);
      expect(length).toBeLessThanOrEqual(32_000);
      expect(score.kinds.failures.total).toBe(1);
      expect(score.kinds.files.total).toBe(2);
    }
  });

  it('finds a failure taken out of the delivered text, and a file given a wrong final state', () => {
    const { text, score } = lint.budgets[0]!;
    const withoutFailure = text
      .split('\n')
      .filter((line) => !line.includes('npm run lint'))
      .join('\n');
    const lowered = scoreHandoff(lint.truth, withoutFailure);
    expect(lowered.kinds.failures.kept).toBeLessThan(Math.max(1, score.kinds.failures.kept));
    expect(lowered.kinds.failures.kept).toBe(0);
    expect(lowered.missing).toContainEqual({ kind: 'failures', item: 'npm run lint' });

    const deleted = lint.truth.files.find((file) => file.state === 'deleted')!;
    const others = text
      .split('\n')
      .filter((line) => !line.includes(deleted.path))
      .join('\n');
    const wrong = scoreHandoff(lint.truth, `${others}\n## Files changed\n- ${deleted.path} (added, +3/-0)\n`);
    expect(wrong.wrongState).toEqual([`${deleted.path} (deleted)`]);
    expect(wrong.stale).toContain(`file ${deleted.path} shown as present`);
  });

  it('prints its usage for --help and starts nothing', async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'tools/evalHandoffs.ts', '--help'],
        // No Neo4j answers there: a run that tried to start a service would fail.
        { cwd: projectRoot(), env: { ...process.env, NEO4J_URI: 'bolt://127.0.0.1:9' } },
        (error, out) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out }),
      );
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run eval:handoffs/);
  });
});
