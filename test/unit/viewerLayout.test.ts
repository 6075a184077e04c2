// The lineage viewer's layout (src/viewer/layout.ts): which ordinals are drawn and read, lanes, bands and
// branches from the data the viewer read, and their pixels. Pure, so no browser: the browser test
// (test/reliability/viewer.test.ts) checks the same drawing end to end on a real thread.
import { describe, expect, it } from 'vitest';
import {
  INHERITED_COLUMNS,
  bandRows,
  columnWidth,
  firstPaintLinks,
  model,
  nothingRead,
  place,
  shownFrom,
  joined,
  withWindow,
  type Band,
  type Handoff,
  type Links,
  type Loaded,
  type Run,
  type RunPage,
  type ThreadHeader,
  type Transfer,
} from '../../src/viewer/layout.js';
import { linkRanges } from '../../src/viewer/queries.js';

type ProviderThread = Links['providerThreads'][number];

const ROOT = { parent: null, relationshipToParent: null, sourcePoint: null };

function thread(overrides: Partial<ThreadHeader> = {}): ThreadHeader {
  return {
    id: 'th',
    title: 'a thread',
    headOrdinal: 0,
    changeSequence: 0,
    lineage: ROOT,
    ancestors: [],
    providerThreadCount: 2,
    ...overrides,
  };
}

function lane(id: string, provider: string, createdAt: string, seq: number): ProviderThread {
  return {
    id,
    provider,
    seq,
    status: 'ACTIVE',
    nativeThreadRef: null,
    model: null,
    runtimeMode: null,
    createdAt,
    forkedFrom: null,
    coverage: { nativeRanges: [], missingRanges: [], coveredThroughOrdinal: 0, handoffIds: [] },
  };
}

function run(
  ordinal: number,
  providerThreadId: string,
  provider = providerThreadId.startsWith('C') ? 'codex' : 'claude',
): Run {
  return {
    id: `run-${ordinal}`,
    ordinal,
    provider,
    status: 'COMPLETED',
    providerThread: { id: providerThreadId },
    plan: { decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' },
  };
}

function page(
  runs: Run[],
  hasPreviousPage = false,
  startCursor: string | null = runs.length ? `cursor-${runs[0]!.ordinal}` : null,
): RunPage {
  return { pageInfo: { hasPreviousPage, startCursor }, edges: runs.map((node) => ({ node })) };
}

function handoff(
  id: string,
  from: number,
  to: number,
  into: string,
  targetOrdinal: number,
  createdAt: string,
  overrides: Partial<Handoff> = {},
): Handoff {
  return {
    id,
    targetRunId: `run-${targetOrdinal}`,
    fromProviderThreadIds: [],
    toProviderThreadId: into,
    coveredRunOrdinals: { from, to },
    strategy: 'FULL_THREAD_SUMMARY',
    status: 'READY',
    createdAt,
    ...overrides,
  };
}

function transfer(id: string, overrides: Partial<Transfer>): Transfer {
  return {
    id,
    kind: 'PROVIDER_HANDOFF',
    sourceThreadId: 'th',
    targetThreadId: 'th',
    status: 'CONSUMED',
    resolution: null,
    createdAt: '2026-01-02T00:00:00Z',
    sourcePoint: { runOrdinal: null },
    basePoint: null,
    handoff: null,
    ...overrides,
  };
}

/** Links of a window: what a test leaves out is read as none. */
const linksOf = (links: Partial<Links>): Links => ({
  handoffs: [],
  transfers: [],
  forks: [],
  subagents: [],
  providerThreads: [],
  ...links,
});

function loaded(header: ThreadHeader, runs: Run[], links: Partial<Links> = {}, hasEarlier = false): Loaded {
  return withWindow(
    nothingRead(header),
    page(runs, hasEarlier),
    linksOf({
      ...links,
      providerThreads: links.providerThreads ?? [
        lane('C1', 'codex', '2026-01-01T00:00:00Z', 1),
        lane('L1', 'claude', '2026-01-01T00:01:00Z', 2),
      ],
    }),
  );
}

/** The design example: codex 1-5, claude 6-8 (H1 over 1-5 into L1), codex 9 (H2 over 6-8 into C1). */
function designExample(): Loaded {
  const runs = [1, 2, 3, 4, 5]
    .map((ordinal) => run(ordinal, 'C1'))
    .concat(
      [6, 7, 8].map((ordinal) => run(ordinal, 'L1')),
      [run(9, 'C1')],
    );
  return loaded(thread({ headOrdinal: 9 }), runs, {
    // Read out of order: the names follow creation.
    handoffs: [
      handoff('h2', 6, 8, 'C1', 9, '2026-01-01T00:09:00Z', {
        strategy: 'DELTA_SINCE_TARGET_LAST_SEEN',
        fromProviderThreadIds: ['L1'],
      }),
      handoff('h1', 1, 5, 'L1', 6, '2026-01-01T00:06:00Z', { fromProviderThreadIds: ['C1'] }),
    ],
  });
}

describe('the viewer window', () => {
  it('reads the links of the window drawn, through one past the newest run (a pending transfer counts there)', () => {
    expect(firstPaintLinks(thread({ headOrdinal: 260 }), page([run(61, 'C1'), run(260, 'C1')], true))).toEqual({
      from: 61,
      to: 261,
    });
    // All runs read: from the first ordinal; a thread without runs reads ordinal 1.
    expect(firstPaintLinks(thread({ headOrdinal: 3 }), page([run(1, 'C1'), run(3, 'C1')]))).toEqual({ from: 1, to: 4 });
    expect(firstPaintLinks(thread(), page([]))).toEqual({ from: 1, to: 1 });
  });

  it('draws a fork from the last inherited columns, its fork point past its own runs when it has none', () => {
    const fork = (at: number) =>
      thread({
        headOrdinal: at,
        lineage: {
          parent: { id: 'parent', title: null },
          relationshipToParent: 'FORK',
          sourcePoint: { runOrdinal: at, checkpointId: null },
        },
      });
    expect(firstPaintLinks(fork(50), page([]))).toEqual({ from: 50 + 1 - INHERITED_COLUMNS, to: 51 });
    expect(firstPaintLinks(fork(INHERITED_COLUMNS - 1), page([]))).toEqual({ from: 1, to: INHERITED_COLUMNS });
    expect(firstPaintLinks(fork(INHERITED_COLUMNS), page([]))).toEqual({ from: 1, to: INHERITED_COLUMNS + 1 });
    expect(firstPaintLinks(fork(INHERITED_COLUMNS + 1), page([]))).toEqual({ from: 2, to: INHERITED_COLUMNS + 2 });
    // A subagent inherits nothing: its own first run.
    const subagent = thread({
      lineage: {
        parent: { id: 'parent', title: null },
        relationshipToParent: 'SUBAGENT',
        sourcePoint: { runOrdinal: 50, checkpointId: null },
      },
    });
    expect(firstPaintLinks(subagent, page([]))).toEqual({ from: 1, to: 1 });
  });

  it('puts an earlier window before the runs read, keeps the links, and the last cursor when the page has none', () => {
    const newest = loaded(
      thread({ headOrdinal: 300 }),
      [run(201, 'C1'), run(300, 'C1')],
      { handoffs: [handoff('a', 1, 200, 'C1', 201, '2026-01-01T00:00:00Z')] },
      true,
    );
    expect(shownFrom(newest)).toBe(201);
    const both = withWindow(
      newest,
      page([run(101, 'C1'), run(200, 'C1')], true, null),
      linksOf({
        handoffs: [
          handoff('b', 1, 100, 'C1', 101, '2026-01-01T00:00:00Z'),
          handoff('a', 1, 200, 'C1', 201, '2026-01-01T00:00:00Z'),
        ],
        transfers: [],
        providerThreads: [],
      }),
    );
    expect(both.runs.map((entry) => entry.ordinal)).toEqual([101, 200, 201, 300]);
    expect([...both.handoffs.keys()]).toEqual(['a', 'b']);
    expect(both.earlierCursor).toBe('cursor-201');
    expect(shownFrom(both)).toBe(101);
    // The first window: nothing earlier, drawn from run 1.
    const all = withWindow(
      both,
      page([run(1, 'C1'), run(100, 'C1')], false),
      linksOf({
        handoffs: [],
        transfers: [],
        providerThreads: [],
      }),
    );
    expect(all.hasEarlier).toBe(false);
    expect(shownFrom(all)).toBe(1);
    // The window read before is left as it was.
    expect(newest.runs).toHaveLength(2);
  });

  it("joins a provider thread's coverage of each window read, since the service cuts it to the window asked", () => {
    const r = (from: number, to: number) => ({ from, to });
    const withCoverage = (coverage: ProviderThread['coverage'], status: ProviderThread['status'] = 'ACTIVE') => ({
      ...lane('C1', 'codex', '2026-01-01T00:00:00Z', 1),
      status,
      coverage,
    });
    const newest = withWindow(
      nothingRead(thread({ headOrdinal: 300 })),
      page([run(201, 'C1')], true),
      linksOf({
        handoffs: [],
        transfers: [],
        providerThreads: [
          withCoverage({
            nativeRanges: [r(201, 250)],
            missingRanges: [r(251, 300)],
            coveredThroughOrdinal: 250,
            handoffIds: ['b'],
          }),
        ],
      }),
    );
    const both = withWindow(
      newest,
      page([run(101, 'C1')], true, null),
      linksOf({
        handoffs: [],
        transfers: [],
        providerThreads: [
          withCoverage(
            {
              nativeRanges: [r(150, 200)],
              missingRanges: [r(101, 149)],
              coveredThroughOrdinal: 200,
              handoffIds: ['a', 'b'],
            },
            'IDLE',
          ),
        ],
      }),
    );
    expect(both.providerThreads.get('C1')).toMatchObject({
      status: 'IDLE',
      coverage: {
        nativeRanges: [r(150, 250)],
        missingRanges: [r(101, 149), r(251, 300)],
        coveredThroughOrdinal: 250,
        handoffIds: ['b', 'a'],
      },
    });
    expect(joined([r(1, 2), r(5, 6)], [r(3, 3), r(8, 9)])).toEqual([r(1, 3), r(5, 6), r(8, 9)]);
    expect(joined([], [])).toEqual([]);
  });

  it('asks for the links in ranges of at most 1,000 ordinals', () => {
    expect(linkRanges(1, 1000)).toEqual([{ from: 1, to: 1000 }]);
    expect(linkRanges(1, 1001)).toEqual([
      { from: 1, to: 1000 },
      { from: 1001, to: 1001 },
    ]);
    expect(linkRanges(61, 2500)).toEqual([
      { from: 61, to: 1060 },
      { from: 1061, to: 2060 },
      { from: 2061, to: 2500 },
    ]);
    expect(linkRanges(5, 4)).toEqual([]);
  });
});

describe('the viewer model', () => {
  it('draws the design example: one lane per provider thread, runs in the lane that served them, H1 and H2 by creation', () => {
    const drawn = model(designExample());
    expect(drawn.lanes.map((entry) => [entry.id, entry.seq, entry.runs.map((served) => served.ordinal)])).toEqual([
      ['C1', 1, [1, 2, 3, 4, 5, 9]],
      ['L1', 2, [6, 7, 8]],
    ]);
    expect(
      drawn.handoffs.map((band) => [
        band.name,
        band.id,
        band.span,
        band.clipped,
        band.label,
        band.sourceProvider,
        band.target?.ordinal,
      ]),
    ).toEqual([
      ['H1', 'h1', { from: 1, to: 5 }, false, 'full summary', 'codex', 6],
      ['H2', 'h2', { from: 6, to: 8 }, false, 'delta', 'claude', 9],
    ]);
    expect(drawn.laneById.get('L1')!.bands.map((band) => band.id)).toEqual(['h1']);
    expect(drawn.laneById.get('C1')!.bands.map((band) => band.id)).toEqual(['h2']);
    expect([drawn.from, drawn.to]).toEqual([1, 9]);
  });

  it('clips a band that covers runs before the window, and leaves out one wholly before it', () => {
    const window = loaded(
      thread({ headOrdinal: 260 }),
      [run(61, 'C1'), run(260, 'L1')],
      {
        handoffs: [
          handoff('old', 1, 30, 'L1', 31, '2026-01-01T00:00:00Z'),
          handoff('long', 1, 100, 'L1', 101, '2026-01-01T00:01:00Z'),
          handoff('edge', 61, 61, 'C1', 62, '2026-01-01T00:02:00Z'),
        ],
      },
      true,
    );
    const drawn = model(window);
    expect(drawn.handoffs.map((band) => [band.id, band.span, band.clipped])).toEqual([
      ['old', null, false],
      ['long', { from: 61, to: 100 }, true],
      ['edge', { from: 61, to: 61 }, false],
    ]);
  });

  it('draws a merge-back and a subagent result at the run that took them in, labelled by their transfer', () => {
    const runs = [run(1, 'C1'), run(2, 'C1'), run(3, 'C1')];
    const drawn = model(
      loaded(thread({ headOrdinal: 3 }), runs, {
        handoffs: [
          handoff('merge', 5, 12, 'C1', 2, '2026-01-01T00:00:00Z', { strategy: 'FORK_DELTA_SUMMARY' }),
          handoff('result', 0, 0, 'C1', 3, '2026-01-01T00:01:00Z', { strategy: 'MANUAL_CONTEXT' }),
        ],
        transfers: [
          transfer('t-merge', {
            kind: 'MERGE_BACK',
            sourceThreadId: 'fork',
            handoff: { id: 'merge', targetRunId: 'run-2' },
          }),
          transfer('t-result', {
            kind: 'SUBAGENT_RESULT',
            sourceThreadId: 'child',
            handoff: { id: 'result', targetRunId: 'run-3' },
          }),
        ],
      }),
    );
    expect(drawn.handoffs.map((band) => [band.id, band.atTarget, band.span, band.label])).toEqual([
      ['merge', true, { from: 2, to: 2 }, 'merge-back'],
      ['result', true, { from: 3, to: 3 }, 'subagent result'],
    ]);
    expect(
      drawn.branches.map((branch) => [branch.kind, branch.direction, branch.ordinal, branch.threadId, branch.status]),
    ).toEqual([
      ['merge-back', 'in', 2, 'fork', 'consumed'],
      ['result', 'in', 3, 'child', 'consumed'],
    ]);
  });

  it('gives a lane to runs of a provider thread the header does not list, and reaches past the newest run for a branch', () => {
    const drawn = model(
      loaded(thread({ headOrdinal: 2 }), [run(1, 'C1'), run(2, 'X9', 'gemini')], {
        forks: [{ id: 'f', title: 'a fork', lineage: { sourcePoint: { runOrdinal: 4, checkpointId: null } } }],
      }),
    );
    expect(drawn.lanes.map((entry) => [entry.id, entry.provider, entry.seq, entry.status, entry.coverage])).toEqual([
      ['C1', 'codex', 1, 'ACTIVE', lane('C1', 'codex', '', 1).coverage],
      ['L1', 'claude', 2, 'ACTIVE', lane('L1', 'claude', '', 2).coverage],
      ['X9', 'gemini', 3, 'IDLE', null],
    ]);
    expect(drawn.branches.map((branch) => [branch.kind, branch.ordinal, branch.status])).toEqual([['fork', 4, '']]);
    expect(drawn.to).toBe(4);
  });
});

describe('the viewer placement', () => {
  it('puts overlapping bands on separate rows and reuses a row once the band before it ended', () => {
    const bands = [
      band('e', 9, 9, '6'),
      band('a', 1, 5, '1'),
      band('b', 3, 8, '2'),
      band('c', 6, 9, '3'),
      band('d', 9, 9, '4'),
      band('none', 0, 0, '5', null),
    ];
    const rows = new Map<string, number>();
    expect(bandRows(bands, rows)).toBe(3);
    expect(Object.fromEntries(rows)).toEqual({ a: 0, b: 1, c: 0, d: 1, e: 2 });
    expect(bandRows([], new Map())).toBe(0);
  });

  it('fits the columns to the drawing, between a label wide enough for the highest ordinal and 96 pixels', () => {
    expect(columnWidth(9, 9, 1440)).toBe(96);
    expect(columnWidth(200, 99, 1440)).toBe(46);
    expect(columnWidth(200, 260, 1440)).toBe(Math.ceil(4 * 14 * 0.58) + 16);
    expect(columnWidth(100, 100_000, 1440)).toBe(Math.ceil(7 * 14 * 0.58) + 16);
    // A narrow drawing still has 480 pixels for the runs.
    expect(columnWidth(10, 9, 100)).toBe(48);
  });

  it('stacks the lanes, each tall enough for its label and its bands above its runs', () => {
    const drawn = model(designExample());
    const at = place(drawn, 1440);
    const c1 = at.lanes.get('C1')!;
    const l1 = at.lanes.get('L1')!;
    expect(c1.top).toBe(40);
    expect(c1.height).toBe(98);
    expect(c1.runTop - c1.bandTop).toBe(34);
    expect(l1.top).toBe(c1.top + c1.height + 10);
    expect(at.lanesBottom).toBe(l1.top + l1.height);
    expect([...at.bandRows]).toEqual([
      ['h2', 0],
      ['h1', 0],
    ]);
    // Runs left to right, one column each, the grid ending after the newest.
    expect(at.colX(2) - at.colX(1)).toBe(at.colW);
    expect(at.gridRight).toBe(at.colX(10));
    expect(at.height).toBe(at.lanesBottom + 12);
  });

  it('leaves a lane without bands its minimal height, and a row per branch below the lanes', () => {
    const drawn = model(
      loaded(thread({ headOrdinal: 1, providerThreadCount: 1 }), [run(1, 'C1')], {
        providerThreads: [lane('C1', 'codex', '', 1)],
        subagents: [{ id: 's', title: null, lineage: { sourcePoint: { runOrdinal: 1 } } }],
      }),
    );
    const at = place(drawn, 1440);
    expect(at.lanes.get('C1')).toEqual({ top: 40, bandTop: 61, runTop: 61, height: 86 });
    expect(at.branchRowY).toEqual([at.lanesBottom + 18 + 15]);
    expect(at.height).toBe(at.lanesBottom + 18 + 30);
  });
});

function band(id: string, from: number, to: number, createdAt: string, span: Band['span'] = { from, to }): Band {
  return {
    ...handoff(id, from, to, 'C1', to + 1, createdAt),
    name: id,
    target: null,
    transfers: [],
    span,
    clipped: false,
    atTarget: false,
    label: 'full summary',
    sourceProvider: null,
  };
}
