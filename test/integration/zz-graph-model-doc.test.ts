// The acceptance case of ../shared/design/domain.md, exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { completeRun, coverage, createThread, runTurns, startRun } from '../support/lineage.js';
import { readFileSync } from 'node:fs';
import { int as neo4jInt } from 'neo4j-driver';

const seed: any = {};

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('the design example: Codex 1-5, Claude 6-8, back to Codex at 9', () => {
  it('hands over 1-5 into a new Claude thread, then 6-8 into the resumed Codex thread', async () => {
    const threadId = await createThread(t);
    const first = await startRun(t, threadId, 'codex');
    expect(first.plan).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'CREATE', handoffStrategy: null });
    const c1 = first.providerThread.id;
    await completeRun(t, first.run.id);
    const fifth = await runTurns(t, threadId, 'codex', 4);
    expect(fifth.run.ordinal).toBe(5);
    expect(fifth.plan).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' });
    expect(fifth.providerThread.id).toBe(c1);

    const sixth = await startRun(t, threadId, 'claude');
    expect(sixth.plan).toMatchObject({ decision: 'FULL_HANDOFF_NEW', providerThreadAction: 'CREATE', handoffStrategy: 'FULL_THREAD_SUMMARY', coveredRunOrdinals: { from: 1, to: 5 } });
    const l1 = sixth.providerThread.id;
    const h1 = sixth.handoff;
    expect(h1).toMatchObject({ coveredRunOrdinals: { from: 1, to: 5 }, fromProviderThreadIds: [c1], toProviderThreadId: l1, status: 'READY', createdByProvider: null, delivery: 'SYSTEM' });
    expect(sixth.run.contextHandoff.id).toBe(h1.id);
    expect(sixth.dispatch).toMatchObject({ providerThreadAction: 'CREATE', nativeThreadRef: null, delivery: 'SYSTEM', context: h1.summaryText });
    await completeRun(t, sixth.run.id);
    await runTurns(t, threadId, 'claude', 2);

    await t.ok(`mutation($input: BindProviderThreadInput!) { bindProviderThread(input: $input) { id } }`, { input: { providerThreadId: c1, nativeThreadRef: 'codex-native-1' } });
    const ninth = await startRun(t, threadId, 'codex');
    expect(ninth.run.ordinal).toBe(9);
    expect(ninth.plan).toMatchObject({ decision: 'DELTA_HANDOFF', providerThreadAction: 'RESUME', handoffStrategy: 'DELTA_SINCE_TARGET_LAST_SEEN', coveredRunOrdinals: { from: 6, to: 8 } });
    expect(ninth.plan.providerThread.id).toBe(c1);
    const h2 = ninth.handoff;
    expect(h2).toMatchObject({ coveredRunOrdinals: { from: 6, to: 8 }, fromProviderThreadIds: [l1], toProviderThreadId: c1, delivery: 'DEVELOPER' });
    expect(ninth.dispatch).toMatchObject({ providerThreadAction: 'RESUME', nativeThreadRef: 'codex-native-1', delivery: 'DEVELOPER', context: h2.summaryText });
    await completeRun(t, ninth.run.id);

    expect((await coverage(t, c1)).coverage).toEqual({ nativeRunOrdinals: [1, 2, 3, 4, 5, 9], handoffIds: [h2.id], coveredThroughOrdinal: 9, missingRunOrdinals: [] });
    expect((await coverage(t, l1)).coverage).toEqual({ nativeRunOrdinals: [6, 7, 8], handoffIds: [h1.id], coveredThroughOrdinal: 8, missingRunOrdinals: [9] });
    const c1Thread = await coverage(t, c1);
    expect(c1Thread).toMatchObject({ firstRunOrdinal: 1, lastRunOrdinal: 9, handoffIds: [h2.id] });

    // The graph itself says the same: COVERS edges, USES edges, DELIVERED_TO and DRAWN_FROM.
    const { records } = await t.driver.executeQuery(
      `MATCH (h:ContextHandoff {id: $h2})-[:COVERS]->(r:Run) WITH h, collect(r.ordinal) AS covered
       MATCH (h)-[:DELIVERED_TO]->(to:ProviderThread), (h)-[:DRAWN_FROM]->(from:ProviderThread), (target:Run)-[:USES]->(h)
       RETURN covered, to.id AS to, from.id AS from, target.ordinal AS target`,
      { h2: h2.id },
      { database: 'neo4j' },
    );
    expect(records[0]!.get('covered').map(Number).sort()).toEqual([6, 7, 8]);
    expect(records[0]!.get('to')).toBe(c1);
    expect(records[0]!.get('from')).toBe(l1);
    expect(Number(records[0]!.get('target'))).toBe(9);
    Object.assign(seed, { threadId, c1, l1, h1: h1.id, h2: h2.id });
  });
});

const doc = readFileSync('docs/graph-model.md', 'utf8');
const section = doc.slice(doc.indexOf('## Common questions in Cypher'), doc.indexOf('## Status life cycles'));
const queries = [...section.matchAll(/```cypher\n([\s\S]*?)```/g)].map((m) => m[1]!);
const num = (v: any) => (v === null || v === undefined ? v : typeof v === 'object' && 'toNumber' in v ? v.toNumber() : v);
const plainify = (v: any): any => Array.isArray(v) ? v.map(plainify) : v && typeof v === 'object' && !('toNumber' in v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainify(x)])) : num(v);
async function q(text: string, params: Record<string, unknown>) {
  const { records } = await t.driver.executeQuery(text, { tenant: 'local', ...params }, { database: 'neo4j' });
  return records.map((r) => plainify(r.toObject()));
}
async function explain(name: string, text: string, params: Record<string, unknown>) {
  const result = await t.driver.executeQuery('EXPLAIN ' + text, { tenant: 'local', ...params }, { database: 'neo4j' });
  const ops: string[] = [];
  const walk = (p: any) => { ops.push(p.operatorType + ' ' + (p.arguments?.Details ?? '')); (p.children ?? []).forEach(walk); };
  walk(result.summary.plan);
  console.log('PLAN ' + name + '\n  ' + ops.join('\n  '));
}

describe('docs/graph-model.md queries', () => {
  it('has five queries', () => { expect(queries).toHaveLength(5); });

  it('coverage of a provider thread', async () => {
    const c1 = await q(queries[0]!, { providerThreadId: seed.c1 });
    console.log(JSON.stringify(c1, null, 1));
    expect(c1).toHaveLength(1);
    expect(c1[0].nativeRunOrdinals).toEqual([1, 2, 3, 4, 5, 9]);
    expect(c1[0].handoffs).toEqual([{ id: seed.h2, strategy: 'delta_since_target_last_seen', coveredFrom: 6, coveredTo: 8 }]);
    expect(c1[0].caption).toBe('codex #1');
    const l1 = await q(queries[0]!, { providerThreadId: seed.l1 });
    expect(l1[0].nativeRunOrdinals).toEqual([6, 7, 8]);
    expect(l1[0].handoffs).toEqual([{ id: seed.h1, strategy: 'full_thread_summary', coveredFrom: 1, coveredTo: 5 }]);
    expect(l1[0].caption).toBe('claude #2');
    await explain('coverage', queries[0]!, { providerThreadId: seed.c1 });
  });

  it('missing runs', async () => {
    const l1 = await q(queries[1]!, { providerThreadId: seed.l1 });
    console.log(JSON.stringify(l1));
    expect(l1).toEqual([{ ordinal: 9, provider: 'codex', servedBy: seed.c1, status: 'completed' }]);
    expect(await q(queries[1]!, { providerThreadId: seed.c1 })).toEqual([]);
    await explain('missing', queries[1]!, { providerThreadId: seed.l1 });
  });

  it('handoff chain', async () => {
    const rows = await q(queries[2]!, { threadId: seed.threadId });
    console.log(JSON.stringify(rows, null, 1));
    expect(rows.map((r: any) => r.handoffId)).toEqual([seed.h1, seed.h2]);
    expect(rows[0]).toMatchObject({ status: 'ready', strategy: 'full_thread_summary', coveredFrom: 1, coveredTo: 5, forRunOrdinal: 6, deliveredTo: seed.l1, deliveredToCaption: 'claude #2', drawnFrom: ['codex #1'], supersedes: null, supersededBy: null });
    expect(rows[1]).toMatchObject({ status: 'ready', strategy: 'delta_since_target_last_seen', coveredFrom: 6, coveredTo: 8, forRunOrdinal: 9, deliveredTo: seed.c1, deliveredToCaption: 'codex #1', drawnFrom: ['claude #2'], supersedes: null, supersededBy: null });
    await explain('chain', queries[2]!, { threadId: seed.threadId });
  });

  it('served by', async () => {
    const rows = await q(queries[3]!, { threadId: seed.threadId });
    console.log(JSON.stringify(rows));
    expect(rows.map((r: any) => r.ordinal)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rows.map((r: any) => r.providerThread)).toEqual(['codex #1', 'codex #1', 'codex #1', 'codex #1', 'codex #1', 'claude #2', 'claude #2', 'claude #2', 'codex #1']);
    expect(rows.map((r: any) => r.contextHandoffId)).toEqual([null, null, null, null, null, seed.h1, null, null, seed.h2]);
    expect(rows.every((r: any) => r.status === 'completed' && r.providerThreadStatus === 'idle')).toBe(true);
    await explain('served', queries[3]!, { threadId: seed.threadId });
  });

  it('decisions', async () => {
    const rows = await q(queries[4]!, { threadId: seed.threadId });
    console.log(JSON.stringify(rows.map((r: any) => ({ ...r, reasons: r.reasons.length }))));
    expect(rows.map((r: any) => `${r.ordinal}:${r.decision}/${r.providerThreadAction}/${r.strategy ?? '-'}/${r.coveredFrom ?? '-'}-${r.coveredTo ?? '-'}`)).toEqual([
      '1:no_handoff/create/-/---', '2:no_handoff/reuse/-/---', '3:no_handoff/reuse/-/---', '4:no_handoff/reuse/-/---', '5:no_handoff/reuse/-/---',
      '6:full_handoff_new/create/full_thread_summary/1-5', '7:no_handoff/reuse/-/---', '8:no_handoff/reuse/-/---', '9:delta_handoff/resume/delta_since_target_last_seen/6-8',
    ]);
    expect(rows[8].resumedProviderThreadId).toBe(seed.c1);
    expect(rows[5].resumedProviderThreadId).toBe(null);
    expect(rows.every((r: any) => Array.isArray(r.stalenessSignals) && r.stalenessSignals.length === 0 && r.reasons.length > 0)).toBe(true);
    const variant = queries[4]!.slice(0, queries[4]!.indexOf('RETURN')) + 'RETURN run.planDecision AS decision, count(*) AS runs ORDER BY runs DESC';
    const counts = await q(variant, { threadId: seed.threadId });
    console.log(JSON.stringify(counts));
    expect(counts[0]).toEqual({ decision: 'no_handoff', runs: 7 });
    await explain('decisions', queries[4]!, { threadId: seed.threadId });
  });

  it('model facts: timestamps in one tx, transfers, properties', async () => {
    const rows = await q(`MATCH (r:Run {tenant: $tenant, threadId: $threadId, ordinal: 6})-[:USES]->(h:ContextHandoff)<-[:MATERIALIZED_AS]-(tr:ContextTransfer)
      MATCH (tr)-[:FROM_THREAD]->(a:Thread), (tr)-[:TO_THREAD]->(b:Thread)
      OPTIONAL MATCH (tr)-[:FROM_RUN]->(fr:Run) OPTIONAL MATCH (tr)-[:BASE_RUN]->(br:Run)
      RETURN r.createdAt = h.createdAt AND h.createdAt = tr.createdAt AS sameTime, a = b AS sameThread, properties(tr) AS tr, h {.*, summaryText: null} AS h, fr.ordinal AS fromRun, br.ordinal AS baseRun`, { threadId: seed.threadId });
    console.log(JSON.stringify(rows, null, 1));
    const rows9 = await q(`MATCH (r:Run {tenant: $tenant, threadId: $threadId, ordinal: 9})-[:USES]->(h:ContextHandoff)<-[:MATERIALIZED_AS]-(tr:ContextTransfer)
      OPTIONAL MATCH (tr)-[:FROM_RUN]->(fr:Run) OPTIONAL MATCH (tr)-[:BASE_RUN]->(br:Run)
      RETURN properties(tr) AS tr, fr.ordinal AS fromRun, br.ordinal AS baseRun`, { threadId: seed.threadId });
    console.log(JSON.stringify(rows9, null, 1));
    const keys = await q(`MATCH (n {tenant: $tenant}) WHERE n.threadId = $threadId OR n.id = $threadId
      UNWIND labels(n) AS label UNWIND keys(n) AS key RETURN label, collect(DISTINCT key) AS keys ORDER BY label`, { threadId: seed.threadId });
    console.log(JSON.stringify(keys, null, 1));
    const t1 = await q(`MATCH (t:Thread {tenant: $tenant, id: $threadId}) RETURN properties(t) AS t`, { threadId: seed.threadId });
    console.log(JSON.stringify(t1, null, 1));
    const rels = await q(`MATCH (a)-[r]->(b) WHERE a.tenant = $tenant AND (a.threadId = $threadId OR a.id = $threadId) RETURN labels(a)[0] AS from, type(r) AS type, labels(b)[0] AS to, count(*) AS n ORDER BY from, type, to`, { threadId: seed.threadId });
    console.log(JSON.stringify(rels));
  });

  it('after a resume failure, the chain shows SUPERSEDES', async () => {
    const tenth = await startRun(t, seed.threadId, 'claude');
    console.log('tenth plan', JSON.stringify(tenth.plan));
    expect(tenth.plan).toMatchObject({ decision: 'DELTA_HANDOFF', providerThreadAction: 'RESUME', coveredRunOrdinals: { from: 9, to: 9 } });
    const h3 = tenth.handoff.id;
    const data = await t.ok(`mutation($input: ReportResumeFailureInput!) { reportResumeFailure(input: $input) { providerThread { id } handoff { id } } }`, { input: { runId: tenth.run.id, error: 'session not found' } });
    const l2 = data.reportResumeFailure.providerThread.id;
    const h4 = data.reportResumeFailure.handoff.id;
    await completeRun(t, tenth.run.id);
    const rows = await q(queries[2]!, { threadId: seed.threadId });
    console.log(JSON.stringify(rows.map((r: any) => ({ ...r })), null, 1));
    expect(rows.map((r: any) => r.handoffId)).toEqual([seed.h1, seed.h2, h3, h4]);
    expect(rows[2]).toMatchObject({ status: 'superseded', forRunOrdinal: 10, deliveredTo: seed.l1, supersedes: null, supersededBy: h4, coveredFrom: 9, coveredTo: 9 });
    expect(rows[3]).toMatchObject({ status: 'ready', forRunOrdinal: 10, deliveredTo: l2, supersedes: h3, supersededBy: null, coveredFrom: 1, coveredTo: 9, strategy: 'full_thread_summary' });
    const served = await q(queries[3]!, { threadId: seed.threadId });
    console.log(JSON.stringify(served.slice(-2)));
    expect(served.at(-1)).toMatchObject({ ordinal: 10, providerThreadId: l2, contextHandoffId: h4 });
    const pts = await q(`MATCH (p:ProviderThread {tenant: $tenant, threadId: $threadId}) RETURN p.caption AS c, p.status AS s, p.resumeError AS e, p.firstRunOrdinal AS f, p.lastRunOrdinal AS l ORDER BY p.seq`, { threadId: seed.threadId });
    console.log(JSON.stringify(pts));
    const cov = await q(queries[0]!, { providerThreadId: seed.l1 });
    console.log(JSON.stringify(cov));
    const miss = await q(queries[1]!, { providerThreadId: seed.l1 });
    console.log(JSON.stringify(miss));
    const dec = await q(queries[4]!, { threadId: seed.threadId });
    console.log(JSON.stringify(dec.at(-1)));
    const tr = await q(`MATCH (a:ContextTransfer)-[:SUPERSEDES]->(b:ContextTransfer) WHERE a.handoffId = $h4 RETURN properties(a) AS a, properties(b) AS b`, { h4 });
    console.log(JSON.stringify(tr, null, 1));
  });

  it('explains', async () => {
    const P = { threadId: seed.threadId, providerThreadId: seed.l1, ids: [seed.l1], provider: 'codex', runWindow: neo4jInt(21), afterOrdinal: neo4jInt(0), limit: neo4jInt(10), from: 1, to: 5, runLimit: neo4jInt(10), factLimit: neo4jInt(10), threadIds: [seed.threadId], key: 'k', runId: 'x' };
    for (const f of ['provider-threads/coverage', 'planner/snapshot', 'runs/page', 'summaries/input', 'threads/latest-checkpoint', 'runs/by-idempotency-key', 'handoffs/by-threads', 'transfers/by-threads']) {
      await explain(f, readFileSync(`cypher/${f}.cypher`, 'utf8').replace(/^\/\/.*$/gm, ''), P);
    }
    await explain('v-served-ordinal', `MATCH (run:Run {tenant: $tenant, threadId: $threadId}) WHERE run.ordinal > 0 RETURN run.ordinal`, P);
    await explain('v-served-notnull', `MATCH (run:Run {tenant: $tenant, threadId: $threadId}) WHERE run.ordinal IS NOT NULL RETURN run.ordinal`, P);
    await explain('v-missing-with', `MATCH (pt:ProviderThread {tenant: $tenant, id: $providerThreadId}) WITH pt MATCH (missing:Run {tenant: $tenant, threadId: pt.threadId}) WHERE missing.ordinal > 0 RETURN missing.ordinal`, P);
    await explain('v-missing-call', `MATCH (pt:ProviderThread {tenant: $tenant, id: $providerThreadId}) CALL (pt) { MATCH (missing:Run {tenant: $tenant, threadId: pt.threadId}) WHERE missing.ordinal > 0 RETURN missing } RETURN missing.ordinal`, P);
  });

  it('types and hints', async () => {
    await completeRun(t, (await startRun(t, seed.threadId, 'codex')).run.id, { facts: [{ kind: 'DECISION', text: 'Use x' }, { kind: 'TEST', text: 'npm test ok', key: 'npm test', status: 'passed' }], checkpoint: { ref: 'abc', diffSummary: '1 file', files: [{ path: 'a.ts', change: 'ADDED', additions: 1, deletions: 0 }] } });
    const types = await q(`MATCH (n) WHERE n.tenant = $tenant AND (n.threadId = $threadId OR n.id = $threadId OR n.sourceThreadId = $threadId)
      UNWIND labels(n) AS label UNWIND keys(n) AS key WITH label, key, valueType(n[key]) AS type
      RETURN label, key, collect(DISTINCT type) AS types ORDER BY label, key`, { threadId: seed.threadId });
    for (const r of types) console.log('TYPE', r.label, r.key, r.types.join(' | '));
    const mig = await q(`MATCH (m:SchemaMigration) UNWIND keys(m) AS key RETURN key, collect(DISTINCT valueType(m[key])) AS types, collect(m.name) AS names`, {});
    console.log('MIG', JSON.stringify(mig));
    const caps = await q(`MATCH (n) WHERE n.tenant = $tenant AND (n.threadId = $threadId OR n.id = $threadId OR n.sourceThreadId = $threadId) RETURN labels(n)[0] AS l, collect(n.caption)[0..3] AS c`, { threadId: seed.threadId });
    console.log('CAPS', JSON.stringify(caps));
    const tries: [string, string][] = [
      ['snapshot-hint', `MATCH (candidate:ProviderThread {tenant: $tenant, threadId: $threadId, provider: $provider}) USING INDEX candidate:ProviderThread(tenant, threadId, provider, seq) RETURN candidate ORDER BY candidate.seq DESC LIMIT 1`],
      ['snapshot-seq', `MATCH (candidate:ProviderThread {tenant: $tenant, threadId: $threadId, provider: $provider}) WHERE candidate.seq IS NOT NULL RETURN candidate ORDER BY candidate.seq DESC LIMIT 1`],
      ['run-hint', `MATCH (run:Run {tenant: $tenant, threadId: $threadId}) USING INDEX run:Run(tenant, threadId, ordinal) RETURN run.ordinal`],
    ];
    for (const [name, text] of tries) {
      try { await explain(name, text, { threadId: seed.threadId, provider: 'codex' }); } catch (e) { console.log('HINTFAIL', name, String(e).slice(0, 300)); }
    }
  });
});
