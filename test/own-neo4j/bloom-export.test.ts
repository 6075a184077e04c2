// Neo4j Bloom (issue 6): every cypher/bloom search phrase and scene action run on the design example with
// a fork and a subagent, and `npm run export` loaded into a second, empty Neo4j and compared with the source.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import neo4j, { type Driver, type Node, type Relationship } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PERSPECTIVE_FILE, type Perspective } from '../../src/export/bloomPerspective.js';
import { cypherLiteral, exportLineage, ExportError, scriptStatements } from '../../src/export/cypherScript.js';
import { createDriver } from '../../src/graph/driver.js';
import { startLocalNeo4j, type LocalNeo4j } from '../../src/graph/localNeo4j.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { cypher, type QueryName, queryNames } from '../../src/graph/queries.js';
import { completeRun, createThread, runTurns, startRun } from '../support/lineage.js';
import { startTestService, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';
import { TEST_NEO4J_SETTINGS } from '../support/neo4jSettings.js';

const execFileAsync = promisify(execFile);
const TRICKY = `It's "quoted" \\ back\\slash;\n// not a comment;\n'}) MATCH (n) DETACH DELETE n // 🚀 café 日本\ttab`;

// A tenant of its own, so that a tenant export holds exactly what this file seeds.
const tenant = fileTenant();
const token = `bloom-test-key-${randomUUID()}`;
const sourceDatabase = inject('neo4j').database;

let t: TestService;
let api: TestService;
let work: string;
let second: LocalNeo4j | undefined;
let target: Driver;

interface Seed {
  root: string;
  runs: Record<number, string>;
  c1: string;
  l1: string;
  h1: string;
  h2: string;
  fork: string;
  forkRun: string;
  lf: string;
  hf: string;
  hs: string;
  subagent: string;
  demo: string;
}
let seed: Seed;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'threadline-bloom-'));
  // The second Neo4j boots while the first one is seeded.
  const booting = startLocalNeo4j({
    storeDir: join(work, 'second-neo4j'),
    password: 'second-neo4j',
    settings: TEST_NEO4J_SETTINGS,
  });
  t = await startTestService({ THREADLINE_API_KEYS: `${token}=${tenant}` });
  api = {
    ...t,
    gql: (query, variables) => t.gql(query, variables, token),
    ok: (query, variables) => t.ok(query, variables, token),
  };
  seed = await seedLineage();
  second = await booting;
  target = createDriver({ uri: second.uri, user: 'neo4j', password: 'second-neo4j', database: 'neo4j' });
}, 240_000);

afterAll(async () => {
  await target?.close();
  await second?.stop();
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The design example (codex 1-5 and 9 on C1, claude 6-8 on L1, H1 and H2), a fork F of run 5 whose run 6
 * on claude spawns subagent S, and a second thread whose rollback leaves a rolled-back and a divergent
 * provider thread. */
async function seedLineage(): Promise<Seed> {
  const root = await createThread(api, 'Design example — "C1/L1" 🚀');
  const first = await startRun(api, root, 'codex', { userMessage: TRICKY });
  const c1 = first.providerThread.id as string;
  await completeRun(api, first.run.id, {
    assistantMessage: `Done.\n${TRICKY}`,
    facts: [
      { kind: 'GOAL', text: TRICKY },
      { kind: 'DECISION', text: 'Use a trie', key: 'lookup', status: 'done' },
    ],
    checkpoint: {
      ref: 'refs/heads/main@{1}',
      diffSummary: 'parser\nrewritten',
      files: [{ path: 'src/pärse.ts', change: 'MODIFIED', additions: 3, deletions: 1 }],
    },
  });
  await runTurns(api, root, 'codex', 4);
  const sixth = await startRun(api, root, 'claude');
  expect(sixth.handoff).toMatchObject({
    coveredRunOrdinals: { from: 1, to: 5 },
    toProviderThreadId: sixth.providerThread.id,
  });
  await completeRun(api, sixth.run.id);
  await runTurns(api, root, 'claude', 2);
  await api.ok(`mutation($input: BindProviderThreadInput!) { bindProviderThread(input: $input) { id } }`, {
    input: { providerThreadId: c1, nativeThreadRef: 'codex-native-1' },
  });
  const ninth = await startRun(api, root, 'codex');
  expect(ninth.plan).toMatchObject({
    decision: 'DELTA_HANDOFF',
    providerThreadAction: 'RESUME',
    coveredRunOrdinals: { from: 6, to: 8 },
  });
  await completeRun(api, ninth.run.id);

  const fork = (
    await api.ok(`mutation($input: ForkThreadInput!) { forkThread(input: $input) { id } }`, {
      input: { sourceThreadId: root, fromOrdinal: 5, title: 'fork F' },
    })
  ).forkThread.id as string;
  const forkRun = await startRun(api, fork, 'claude');
  expect(forkRun.plan).toMatchObject({ decision: 'FULL_HANDOFF_NEW', coveredRunOrdinals: { from: 1, to: 5 } });
  const subagent = (
    await api.ok(`mutation($input: SpawnSubagentInput!) { spawnSubagent(input: $input) { id } }`, {
      input: {
        parentRunId: forkRun.run.id,
        provider: 'codex',
        task: 'Find every caller of parse()',
        title: 'subagent S',
      },
    })
  ).spawnSubagent.id as string;
  const subRun = await startRun(api, subagent, 'codex');
  await completeRun(api, subRun.run.id);
  const result = (
    await api.ok(
      `mutation($id: ID!) { completeSubagent(input: { childThreadId: $id, result: "parse() has 3 callers" }) { handoff { id } } }`,
      { id: subagent },
    )
  ).completeSubagent;
  await completeRun(api, forkRun.run.id);

  const demo = await createThread(api, 'rollback demo');
  await runTurns(api, demo, 'codex', 2);
  await runTurns(api, demo, 'claude', 1);
  await api.ok(
    `mutation($id: ID!) { rollbackThread(input: { threadId: $id, toOrdinal: 1 }) { thread { headOrdinal } } }`,
    { id: demo },
  );

  const { records } = await t.driver.executeQuery(
    'MATCH (run:Run {tenant: $tenant, threadId: $root}) RETURN run.ordinal AS ordinal, run.id AS id',
    { tenant, root },
    { database: sourceDatabase },
  );
  const runs = Object.fromEntries(records.map((record) => [Number(record.get('ordinal')), record.get('id') as string]));
  return {
    root,
    runs,
    c1,
    l1: sixth.providerThread.id,
    h1: sixth.handoff.id,
    h2: ninth.handoff.id,
    fork,
    forkRun: forkRun.run.id,
    lf: forkRun.providerThread.id,
    hf: forkRun.handoff.id,
    hs: result.handoff.id,
    subagent,
    demo,
  };
}

// ---------------------------------------------------------------------------------------------------
// What Bloom would draw: the nodes and relationships in the returned paths, nodes and relationships.

interface Scene {
  nodes: Map<string, Node>;
  relationships: Map<string, Relationship>;
}

async function draw(
  driver: Driver,
  name: QueryName,
  params: Record<string, unknown>,
  database = sourceDatabase,
): Promise<Scene> {
  return drawText(cypher(name), params, driver, database);
}

async function drawText(
  text: string,
  params: Record<string, unknown>,
  driver: Driver = t.driver,
  database = sourceDatabase,
): Promise<Scene> {
  const { records } = await driver.executeQuery(text, params, { database });
  const scene: Scene = { nodes: new Map(), relationships: new Map() };
  const visit = (value: unknown) => {
    if (neo4j.isPath(value)) {
      scene.nodes.set(value.start.elementId, value.start);
      for (const segment of value.segments) {
        scene.nodes.set(segment.end.elementId, segment.end);
        scene.relationships.set(segment.relationship.elementId, segment.relationship);
      }
    } else if (neo4j.isNode(value)) scene.nodes.set(value.elementId, value);
    else if (neo4j.isRelationship(value)) scene.relationships.set(value.elementId, value);
    else if (Array.isArray(value)) value.forEach(visit);
  };
  for (const record of records) record.forEach(visit);
  return scene;
}

const idsOf = (scene: Scene) => [...scene.nodes.values()].map((node) => node.properties.id as string).sort();
function typesOf(scene: Scene): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const relationship of scene.relationships.values())
    counts[relationship.type] = (counts[relationship.type] ?? 0) + 1;
  return counts;
}
/** The relationships "Lineage of thread" draws on the design example: each handoff COVERS the ends of its range. */
const DESIGN_EXAMPLE_LINEAGE = {
  HAS_RUN: 9,
  USES: 11,
  HAS_PROVIDER_THREAD: 2,
  DELIVERED_TO: 2,
  DRAWN_FROM: 2,
  COVERS: 4,
};
const sorted = (...ids: string[]) => [...ids].sort();
const runIds = (...ordinals: number[]) => ordinals.map((ordinal) => seed.runs[ordinal]!);

async function elementIdOf(label: string, id: string): Promise<string> {
  const { records } = await t.driver.executeQuery(
    `MATCH (n:${label} {tenant: $tenant, id: $id}) RETURN elementId(n) AS elementId`,
    { tenant, id },
    { database: sourceDatabase },
  );
  return records[0]!.get('elementId') as string;
}

describe('the Bloom search phrases and scene actions (cypher/bloom)', () => {
  it('are all exercised here', () => {
    expect(queryNames().filter((name) => name.startsWith('bloom/'))).toEqual([
      'bloom/fork-tree',
      'bloom/handoffs-covering-run',
      'bloom/provider-thread-coverage',
      'bloom/scene-fork-tree',
      'bloom/scene-handoffs-covering-run',
      'bloom/scene-provider-thread-coverage',
      'bloom/scene-thread-lineage',
      'bloom/stale-provider-threads',
      'bloom/thread-lineage',
    ]);
  });

  it('thread-lineage: the thread, its runs, provider threads and handoffs with what they cover', async () => {
    const scene = await draw(t.driver, 'bloom/thread-lineage', { tenant, threadId: seed.root });
    expect(idsOf(scene)).toEqual(
      sorted(seed.root, ...runIds(1, 2, 3, 4, 5, 6, 7, 8, 9), seed.c1, seed.l1, seed.h1, seed.h2),
    );
    expect(typesOf(scene)).toEqual(DESIGN_EXAMPLE_LINEAGE);
    expect(scene.relationships.size).toBe(30);
    const captions = [...scene.nodes.values()].map((node) => node.properties.caption).sort();
    expect(captions).toEqual(
      expect.arrayContaining([
        'codex #1',
        'claude #2',
        '#6 claude',
        'full_thread_summary 1-5',
        'delta_since_target_last_seen 6-8',
        'Design example — "C1/L1" 🚀',
      ]),
    );

    // The fork's lineage reaches into its source: its portable context covers the root's runs 1-5.
    const forkScene = await draw(t.driver, 'bloom/thread-lineage', { tenant, threadId: seed.fork });
    expect(idsOf(forkScene)).toEqual(
      sorted(seed.fork, seed.forkRun, seed.lf, seed.hf, seed.hs, ...runIds(1, 5), seed.c1),
    );
    expect(typesOf(forkScene)).toEqual({
      HAS_RUN: 1,
      USES: 3,
      HAS_PROVIDER_THREAD: 1,
      DELIVERED_TO: 2,
      DRAWN_FROM: 1,
      COVERS: 2,
    });
  });

  it('provider-thread-coverage: the runs a provider thread served and the handoffs it received with the runs they cover', async () => {
    const c1 = await draw(t.driver, 'bloom/provider-thread-coverage', { tenant, providerThreadId: seed.c1 });
    expect(idsOf(c1)).toEqual(sorted(seed.c1, ...runIds(1, 2, 3, 4, 5, 9), seed.h2, ...runIds(6, 8)));
    expect(typesOf(c1)).toEqual({ USES: 6, DELIVERED_TO: 1, COVERS: 2 });
    const l1 = await draw(t.driver, 'bloom/provider-thread-coverage', { tenant, providerThreadId: seed.l1 });
    expect(idsOf(l1)).toEqual(sorted(seed.l1, ...runIds(6, 7, 8), seed.h1, ...runIds(1, 5)));
    expect(typesOf(l1)).toEqual({ USES: 3, DELIVERED_TO: 1, COVERS: 2 });
    // The fork's provider thread: its own run, the portable context over the root's 1-5 and the subagent's result.
    const lf = await draw(t.driver, 'bloom/provider-thread-coverage', { tenant, providerThreadId: seed.lf });
    expect(idsOf(lf)).toEqual(sorted(seed.lf, seed.forkRun, seed.hf, ...runIds(1, 5), seed.hs));
    expect(typesOf(lf)).toEqual({ USES: 1, DELIVERED_TO: 2, COVERS: 2 });
  });

  it("handoffs-covering-run: where a run's work went, in its thread and in a fork", async () => {
    const third = await draw(t.driver, 'bloom/handoffs-covering-run', { tenant, runId: seed.runs[3] });
    // H1 and the fork's HF hold run 3 in their ranges 1-5; each is drawn with the ends of its range.
    expect(idsOf(third)).toEqual(
      sorted(seed.runs[3]!, seed.c1, seed.h1, seed.l1, seed.runs[6]!, seed.hf, seed.lf, seed.forkRun, ...runIds(1, 5)),
    );
    expect(typesOf(third)).toEqual({ USES: 3, COVERS: 4, DELIVERED_TO: 2 });
    const seventh = await draw(t.driver, 'bloom/handoffs-covering-run', { tenant, runId: seed.runs[7] });
    expect(idsOf(seventh)).toEqual(sorted(seed.runs[7]!, seed.l1, seed.h2, seed.c1, seed.runs[9]!, ...runIds(6, 8)));
    expect(typesOf(seventh)).toEqual({ USES: 2, COVERS: 2, DELIVERED_TO: 1 });
    const ninth = await draw(t.driver, 'bloom/handoffs-covering-run', { tenant, runId: seed.runs[9] });
    expect(idsOf(ninth)).toEqual(sorted(seed.runs[9]!, seed.c1));
  });

  it('stale-provider-threads: the rolled-back and divergent provider threads with their thread, and nothing of the design example', async () => {
    const scene = await draw(t.driver, 'bloom/stale-provider-threads', { tenant });
    const providerThreads = [...scene.nodes.values()].filter((node) => node.labels.includes('ProviderThread'));
    expect(providerThreads.map((node) => [node.properties.provider, node.properties.status]).sort()).toEqual([
      ['claude', 'divergent'],
      ['codex', 'rolled_back'],
    ]);
    expect(
      [...scene.nodes.values()].filter((node) => node.labels.includes('Thread')).map((node) => node.properties.id),
    ).toEqual([seed.demo]);
    expect(typesOf(scene)).toEqual({ HAS_PROVIDER_THREAD: 2 });
  });

  it("fork-tree: a root thread with its fork and the fork's subagent, through their source runs", async () => {
    const scene = await draw(t.driver, 'bloom/fork-tree', { tenant, threadId: seed.root });
    expect(idsOf(scene)).toEqual(sorted(seed.root, seed.runs[5]!, seed.fork, seed.forkRun, seed.subagent));
    expect(typesOf(scene)).toEqual({ HAS_RUN: 2, FORKED_FROM: 1, SPAWNED_BY: 1 });
    const below = await draw(t.driver, 'bloom/fork-tree', { tenant, threadId: seed.fork });
    expect(idsOf(below)).toEqual(sorted(seed.fork, seed.forkRun, seed.subagent));
    expect(typesOf(below)).toEqual({ HAS_RUN: 1, SPAWNED_BY: 1 });
    const alone = await draw(t.driver, 'bloom/fork-tree', { tenant, threadId: seed.demo });
    expect(idsOf(alone)).toEqual([seed.demo]);
    expect(alone.relationships.size).toBe(0);
  });

  it('stay in their tenant', async () => {
    const other = `other-${randomUUID().slice(0, 8)}`;
    for (const [name, params] of [
      ['bloom/thread-lineage', { threadId: seed.root }],
      ['bloom/provider-thread-coverage', { providerThreadId: seed.c1 }],
      ['bloom/handoffs-covering-run', { runId: seed.runs[3] }],
      ['bloom/stale-provider-threads', {}],
      ['bloom/fork-tree', { threadId: seed.root }],
    ] as const) {
      expect((await draw(t.driver, name, { tenant: other, ...params })).nodes.size, name).toBe(0);
    }
  });

  it('scene actions draw, for the selected nodes, what their search phrases draw', async () => {
    const same = async (action: QueryName, phrase: QueryName, nodes: string[], params: Record<string, unknown>) => {
      const fromAction = await draw(t.driver, action, { nodes });
      const fromPhrase = await draw(t.driver, phrase, { tenant, ...params });
      expect(fromAction.nodes.size, action).toBeGreaterThan(0);
      expect([...fromAction.nodes.keys()].sort(), action).toEqual([...fromPhrase.nodes.keys()].sort());
      expect([...fromAction.relationships.keys()].sort(), action).toEqual([...fromPhrase.relationships.keys()].sort());
    };
    const root = await elementIdOf('Thread', seed.root);
    const run3 = await elementIdOf('Run', seed.runs[3]!);
    const c1 = await elementIdOf('ProviderThread', seed.c1);
    await same('bloom/scene-thread-lineage', 'bloom/thread-lineage', [root, run3], { threadId: seed.root });
    await same('bloom/scene-provider-thread-coverage', 'bloom/provider-thread-coverage', [c1, root], {
      providerThreadId: seed.c1,
    });
    await same('bloom/scene-handoffs-covering-run', 'bloom/handoffs-covering-run', [run3, c1], { runId: seed.runs[3] });
    await same('bloom/scene-fork-tree', 'bloom/fork-tree', [root, run3], { threadId: seed.root });
    // Two selected threads: both lineages.
    const both = await draw(t.driver, 'bloom/scene-thread-lineage', {
      nodes: [root, await elementIdOf('Thread', seed.demo)],
    });
    expect(idsOf(both)).toEqual(expect.arrayContaining([seed.root, seed.demo, seed.c1]));
    // Nothing of the right label selected: nothing drawn.
    expect((await draw(t.driver, 'bloom/scene-thread-lineage', { nodes: [run3, c1] })).nodes.size).toBe(0);
    expect((await draw(t.driver, 'bloom/scene-handoffs-covering-run', { nodes: [] })).nodes.size).toBe(0);
  });
});

describe('the Bloom perspective file (docs/bloom-perspective.json) on a real Neo4j', () => {
  const perspective = JSON.parse(readFileSync(join(projectRoot(), PERSPECTIVE_FILE), 'utf8')) as Perspective;

  it('compiles every search phrase and scene action, as the file holds them, and draws the design example with each', async () => {
    const phraseParams: Record<string, Record<string, unknown>> = {
      'Lineage of thread $threadId in tenant $tenant': { threadId: seed.root },
      'Coverage of provider thread $providerThreadId in tenant $tenant': { providerThreadId: seed.c1 },
      'Handoffs covering run $runId in tenant $tenant': { runId: seed.runs[3] },
      'Stale provider threads in tenant $tenant': {},
      'Fork tree of thread $threadId in tenant $tenant': { threadId: seed.root },
    };
    expect(perspective.templates.map((template) => template.text).sort()).toEqual(Object.keys(phraseParams).sort());
    for (const template of perspective.templates) {
      const params = { tenant, ...phraseParams[template.text] };
      await t.driver.executeQuery(`EXPLAIN ${template.cypher}`, params, { database: sourceDatabase });
      const scene = await drawText(template.cypher, params);
      expect(scene.nodes.size, template.text).toBeGreaterThan(1);
    }
    const selection = [
      await elementIdOf('Thread', seed.root),
      await elementIdOf('Run', seed.runs[3]!),
      await elementIdOf('ProviderThread', seed.c1),
    ];
    for (const action of perspective.sceneActions) {
      await t.driver.executeQuery(`EXPLAIN ${action.cypher}`, { nodes: selection }, { database: sourceDatabase });
      expect((await drawText(action.cypher, { nodes: selection })).nodes.size, action.name).toBeGreaterThan(1);
    }
  });

  it('names properties the graph holds, with their types', async () => {
    const { records } = await t.driver.executeQuery(
      'CALL db.schema.nodeTypeProperties() YIELD nodeLabels, propertyName, propertyTypes ' +
        'UNWIND nodeLabels AS label RETURN label, propertyName, propertyTypes',
      {},
      { database: sourceDatabase },
    );
    const stored = new Map<string, string[]>();
    for (const record of records)
      stored.set(
        `${record.get('label') as string}.${record.get('propertyName') as string}`,
        record.get('propertyTypes'),
      );
    const neo4jTypes = { string: ['String'], bigint: ['Long'], number: ['Double'], array: ['StringArray'] } as const;
    for (const category of perspective.categories) {
      for (const property of category.properties) {
        const key = `${category.labels[0]!}.${property.name}`;
        expect(stored.get(key), key).toBeDefined();
        expect(neo4jTypes[property.dataType], key).toEqual(expect.arrayContaining(stored.get(key)!));
      }
    }
  });

  it('declares every relationship of the design example between its categories, and searches by indexes that exist', async () => {
    const { records } = await t.driver.executeQuery(
      'MATCH (a {tenant: $tenant})-[r]->(b) RETURN DISTINCT labels(a)[0] AS source, type(r) AS type, labels(b)[0] AS target',
      { tenant },
      { database: sourceDatabase },
    );
    const declared = new Set(
      perspective.metadata.pathSegments.map((s) => `${s.source}-${s.relationshipType}->${s.target}`),
    );
    const seen = records.map(
      (record) =>
        `${record.get('source') as string}-${record.get('type') as string}->${record.get('target') as string}`,
    );
    expect(seen.length).toBeGreaterThan(10);
    for (const segment of seen) expect(declared, segment).toContain(segment);

    const indexes = await t.driver.executeQuery(
      "SHOW INDEXES YIELD labelsOrTypes, properties, entityType WHERE entityType = 'NODE' AND labelsOrTypes IS NOT NULL RETURN labelsOrTypes, properties",
      {},
      { database: sourceDatabase },
    );
    const existing = indexes.records.map(
      (record) =>
        `${(record.get('labelsOrTypes') as string[]).join()}(${(record.get('properties') as string[]).join()})`,
    );
    for (const index of perspective.metadata.indexes) {
      const key = `${index.label}(${index.propertyKeys.map((property) => property.key).join()})`;
      expect(existing, key).toContain(key);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// The export: loaded into the second Neo4j, it must give back the same nodes, properties and relationships.

/** A value with its Neo4j type made visible, so that an integer that came back as a float fails. */
function typed(value: unknown): unknown {
  if (neo4j.isInt(value)) return { INTEGER: value.toString() };
  if (typeof value === 'number') return { FLOAT: Object.is(value, -0) ? '-0' : String(value) };
  if (neo4j.isDateTime(value)) return { DATETIME: value.toString() };
  if (
    neo4j.isDate(value) ||
    neo4j.isLocalDateTime(value) ||
    neo4j.isTime(value) ||
    neo4j.isLocalTime(value) ||
    neo4j.isDuration(value) ||
    neo4j.isPoint(value)
  ) {
    return { [value.constructor.name]: value.toString() };
  }
  if (Array.isArray(value)) return value.map(typed);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, typed(inner)]));
  return value;
}

function keyOf(labels: string[], properties: Record<string, unknown>): string {
  const id =
    properties.id ?? `${String(properties.threadId)}/${String(properties.runOrdinal)}/${String(properties.seq)}`;
  return `${[...labels].sort().join(':')} ${String(properties.tenant)}/${String(id)}`;
}

interface GraphCopy {
  nodes: Map<string, unknown>;
  relationships: string[];
  labels: Record<string, number>;
  types: Record<string, number>;
}

/** Nodes (by key, with typed properties) and relationships (as "type from -> to props"), read with `where`. */
async function readGraph(
  driver: Driver,
  database: string,
  where: string,
  params: Record<string, unknown>,
): Promise<GraphCopy> {
  const nodes = await driver.executeQuery(
    `MATCH (n) WHERE ${where} RETURN elementId(n) AS elementId, labels(n) AS labels, properties(n) AS properties`,
    params,
    { database },
  );
  const keys = new Map<string, string>();
  const copy: GraphCopy = { nodes: new Map(), relationships: [], labels: {}, types: {} };
  for (const record of nodes.records) {
    const labels = record.get('labels') as string[];
    const properties = record.get('properties') as Record<string, unknown>;
    const key = keyOf(labels, properties);
    expect(copy.nodes.has(key), key).toBe(false);
    keys.set(record.get('elementId'), key);
    copy.nodes.set(key, typed(properties));
    const label = labels.join(':');
    copy.labels[label] = (copy.labels[label] ?? 0) + 1;
  }
  const relationships = await driver.executeQuery(
    'MATCH (a)-[r]->(b) WHERE elementId(a) IN $ids AND elementId(b) IN $ids RETURN elementId(a) AS a, type(r) AS type, elementId(b) AS b, properties(r) AS properties',
    { ids: [...keys.keys()] },
    { database },
  );
  for (const record of relationships.records) {
    const type = record.get('type') as string;
    copy.relationships.push(
      `${type} ${keys.get(record.get('a'))} -> ${keys.get(record.get('b'))} ${JSON.stringify(typed(record.get('properties')))}`,
    );
    copy.types[type] = (copy.types[type] ?? 0) + 1;
  }
  copy.relationships.sort();
  return copy;
}

const THREAD_LINEAGE_WHERE = `n.tenant = $tenant AND (
  (n:Thread AND n.id = $threadId)
  OR ((n:Run OR n:RunFact OR n:Checkpoint OR n:ProviderThread OR n:ContextHandoff) AND n.threadId = $threadId)
  OR (n:ContextTransfer AND (n.sourceThreadId = $threadId OR n.targetThreadId = $threadId)))`;

/** Loads a script as a user would: one auto-committed statement at a time, into an emptied database. */
async function loadIntoSecond(script: string): Promise<void> {
  await target.executeQuery('MATCH (n) DETACH DELETE n', {}, { database: 'neo4j' });
  for (const statement of scriptStatements(script)) {
    const session = target.session({ database: 'neo4j' });
    try {
      await session.run(statement);
    } finally {
      await session.close();
    }
  }
  await target.executeQuery('CALL db.awaitIndexes(60)', {}, { database: 'neo4j' });
}

function withoutComments(script: string): string {
  return script
    .split('\n')
    .filter((line) => !line.startsWith('//'))
    .join('\n');
}

function exportEnv(): NodeJS.ProcessEnv {
  const neo = inject('neo4j');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEO4J_URI: neo.uri,
    NEO4J_USER: neo.user,
    NEO4J_DATABASE: neo.database,
    LOG_LEVEL: 'silent',
  };
  if (neo.password === null) delete env.NEO4J_PASSWORD;
  else env.NEO4J_PASSWORD = neo.password;
  delete env.THREADLINE_API_KEYS;
  return env;
}

async function npmExport(args: string[], env = exportEnv()) {
  return execFileAsync('npm', ['run', '--silent', 'export', '--', ...args], {
    cwd: projectRoot(),
    env,
    timeout: 120_000,
  });
}

describe('npm run export', () => {
  it('writes literals that Neo4j reads back as the same values and types', async () => {
    const values: unknown[] = [
      TRICKY,
      '\u0000\u001f\u007f\u2028 zero and control characters',
      '🚀👩‍💻 emoji, ZWJ sequence, 日本語, café',
      neo4j.int(42),
      neo4j.int('9223372036854775807'),
      neo4j.int('-9223372036854775808'),
      1.5,
      5,
      1e21,
      1.5e-7,
      Number.MAX_VALUE,
      true,
      ['a', "b'c", 'd\ne'],
      [neo4j.int(1), neo4j.int(2)],
      [1.25, 2],
      [],
      { nested: { list: [neo4j.int(1)], text: TRICKY } },
      new neo4j.DateTime(2024, 5, 1, 10, 0, 0, 123456789, 0),
      new neo4j.DateTime(2024, 5, 1, 10, 0, 0, 1, 7200, 'Europe/Paris'),
      new neo4j.DateTime(2024, 5, 1, 10, 0, 0, 500000000, -12600),
      new neo4j.Date(2024, 1, 2),
      new neo4j.LocalDateTime(2024, 1, 2, 3, 4, 5, 100000000),
      new neo4j.Time(10, 0, 1, 0, 3600),
      new neo4j.LocalTime(10, 0, 0, 5),
      new neo4j.Duration(14, 3, 14706, 7000000),
      new neo4j.Point(7203, 1.5, 2),
      new neo4j.Point(4979, 1.5, 2, 3),
    ];
    for (const value of values) {
      const { records } = await t.driver.executeQuery(
        `RETURN ${cypherLiteral(value)} AS literal, $value AS parameter`,
        { value },
        { database: sourceDatabase },
      );
      expect(typed(records[0]!.get('literal')), cypherLiteral(value)).toEqual(typed(records[0]!.get('parameter')));
    }
  });

  it('exports a thread that loads into an empty Neo4j with the same nodes, properties and relationships', async () => {
    const result = await exportLineage(t.driver, { tenant, threadId: seed.root }, { database: sourceDatabase });
    expect(result.threadIds).toEqual([seed.root]);
    const source = await readGraph(t.driver, sourceDatabase, THREAD_LINEAGE_WHERE, { tenant, threadId: seed.root });
    // The root's own nodes: its switch transfers and the fork transfer out of it, not the fork's nodes.
    expect(source.labels).toEqual({
      Thread: 1,
      Run: 9,
      RunFact: 2,
      Checkpoint: 1,
      ProviderThread: 2,
      ContextHandoff: 2,
      ContextTransfer: 3,
    });
    expect(result.nodeCounts).toEqual(source.labels);
    expect(result.relationshipCounts).toEqual(source.types);
    expect(result.script).not.toMatch(/[^\x20-\x7e\n]/);

    await loadIntoSecond(result.script);
    const copy = await readGraph(target, 'neo4j', 'true', {});
    expect(copy.labels).toEqual(source.labels);
    expect(copy.types).toEqual(source.types);
    expect(copy.relationships).toEqual(source.relationships);
    expect(Object.fromEntries(copy.nodes)).toEqual(Object.fromEntries(source.nodes));
    // Spot checks of types that matter to Bloom's rules and to the service.
    const run1 = copy.nodes.get(keyOf(['Run'], { tenant, id: seed.runs[1] })) as Record<string, unknown>;
    expect(run1).toMatchObject({
      ordinal: { INTEGER: '1' },
      userMessage: TRICKY,
      createdAt: { DATETIME: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
    const { records } = await target.executeQuery(
      'SHOW CONSTRAINTS YIELD name RETURN collect(name) AS names',
      {},
      { database: 'neo4j' },
    );
    expect(records[0]!.get('names')).toEqual(
      expect.arrayContaining([
        'thread_tenant_id',
        'run_id',
        'provider_thread_id',
        'context_handoff_id',
        'context_transfer_id',
        'checkpoint_id',
      ]),
    );

    // Bloom's phrases read the copy as they read the source.
    const onCopy = await draw(target, 'bloom/thread-lineage', { tenant, threadId: seed.root }, 'neo4j');
    expect(idsOf(onCopy)).toEqual(idsOf(await draw(t.driver, 'bloom/thread-lineage', { tenant, threadId: seed.root })));
    expect(typesOf(onCopy)).toEqual(DESIGN_EXAMPLE_LINEAGE);

    // The same export through the command line, against the configured Neo4j.
    const out = join(work, 'thread.cypher');
    const { stderr } = await npmExport(['--thread', seed.root, '--tenant', tenant, '--out', out]);
    expect(stderr).toContain(
      `Exported thread ${seed.root}: ${result.nodes} nodes, ${result.relationships} relationships`,
    );
    expect(withoutComments(await readFile(out, 'utf8'))).toBe(withoutComments(result.script));
  }, 180_000);

  it('exports a whole tenant, forks and subagents included, through the command line', async () => {
    const out = join(work, 'tenant', 'tenant.cypher');
    await npmExport(['--tenant', tenant, '--out', out]);
    const script = await readFile(out, 'utf8');
    expect(script).toContain(`// Threadline lineage export: tenant '${tenant}' (4 threads)`);
    // The change feed behind subscriptions is the service's own bookkeeping, not lineage: not exported.
    const source = await readGraph(t.driver, sourceDatabase, 'n.tenant = $tenant AND NOT n:ThreadChange', { tenant });
    expect(source.labels.Thread).toBe(4);

    await loadIntoSecond(script);
    const copy = await readGraph(target, 'neo4j', 'true', {});
    expect(copy.labels).toEqual(source.labels);
    expect(copy.types).toEqual(source.types);
    expect(copy.relationships).toEqual(source.relationships);
    expect(Object.fromEntries(copy.nodes)).toEqual(Object.fromEntries(source.nodes));
    // Edges between threads came along: the fork tree and the stale provider threads read the same.
    const tree = await draw(target, 'bloom/fork-tree', { tenant, threadId: seed.root }, 'neo4j');
    expect(idsOf(tree)).toEqual(sorted(seed.root, seed.runs[5]!, seed.fork, seed.forkRun, seed.subagent));
    const stale = await draw(target, 'bloom/stale-provider-threads', { tenant }, 'neo4j');
    expect(typesOf(stale)).toEqual({ HAS_PROVIDER_THREAD: 2 });
    const forkCoverage = await draw(
      target,
      'bloom/provider-thread-coverage',
      { tenant, providerThreadId: seed.lf },
      'neo4j',
    );
    expect(typesOf(forkCoverage)).toEqual({ USES: 1, DELIVERED_TO: 2, COVERS: 2 });
  }, 180_000);

  it('refuses an unknown thread, and never starts a Neo4j of its own', async () => {
    await expect(
      exportLineage(t.driver, { tenant, threadId: 'no-such-thread' }, { database: sourceDatabase }),
    ).rejects.toBeInstanceOf(ExportError);
    // Without NEO4J_URI it reads only the local Neo4j a running `npm start` recorded in its data
    // directory; this one is empty.
    const env: NodeJS.ProcessEnv = { ...exportEnv(), THREADLINE_DATA_DIR: join(work, 'no-npm-start') };
    delete env.NEO4J_URI;
    const failure = await npmExport(['--thread', seed.root], env).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('NEO4J_URI is not set, and no local Neo4j of `npm start` runs');
    const unknown = await npmExport(['--thread', 'no-such-thread', '--tenant', tenant]).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(unknown?.code).toBe(1);
    expect(unknown?.stderr).toContain('No thread "no-such-thread"');
  }, 120_000);
});
