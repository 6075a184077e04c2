// What the viewer draws, and where, from what it has read: pure functions of the loaded data (no DOM,
// no fetch), so test/unit/viewerLayout.test.ts checks them without a browser. model() turns the read
// runs, handoffs and transfers into lanes, bands and branches; place() gives them their pixels.
import { STRATEGY_LABELS, approxWidth } from './format.js';
import type { ThreadWindowLinksQuery, ThreadWindowQuery } from './generated/graphql.js';

type WindowThread = NonNullable<ThreadWindowQuery['thread']>;
export type RunPage = WindowThread['runs'];
export type Run = RunPage['edges'][number]['node'];
export type ThreadHeader = Omit<WindowThread, 'runs'>;
export type Links = NonNullable<ThreadWindowLinksQuery['thread']>;
export type Handoff = Links['handoffs'][number];
export type Transfer = Links['transfers'][number];
type ProviderThread = Links['providerThreads'][number];
export type Fork = Links['forks'][number];
export type Subagent = Links['subagents'][number];

/**
 * What has been read of the thread so far: its header, the runs of the window (oldest first), and the
 * handoffs, transfers, forks, subagents and provider threads of those runs (a long thread has
 * thousands of each: only the window's are read).
 */
export interface Loaded {
  thread: ThreadHeader;
  runs: Run[];
  handoffs: Map<string, Handoff>;
  transfers: Map<string, Transfer>;
  forks: Map<string, Fork>;
  subagents: Map<string, Subagent>;
  providerThreads: Map<string, ProviderThread>;
  earlierCursor: string | null;
  hasEarlier: boolean;
}

/** A fork's inherited runs are drawn as one hatched region of at most this many columns. */
export const INHERITED_COLUMNS = 20;

export function forkOrdinalOf(thread: Pick<ThreadHeader, 'lineage'>): number {
  return thread.lineage.relationshipToParent === 'FORK' ? (thread.lineage.sourcePoint?.runOrdinal ?? 0) : 0;
}

/** The highest ordinal of the thread: its newest run, or for a fork without runs yet its fork point. */
export function newestOrdinal(loaded: Pick<Loaded, 'thread' | 'runs'>): number {
  return Math.max(loaded.thread.headOrdinal, loaded.runs.at(-1)?.ordinal ?? 0);
}

/**
 * The lowest ordinal drawn once `oldestRun` is the oldest run read: that run while earlier ones remain,
 * else the thread's first (for a fork, the last few of the runs it inherited).
 */
export function lowestShown(
  thread: Pick<ThreadHeader, 'lineage'>,
  oldestRun: Pick<Run, 'ordinal'> | undefined,
  hasEarlier: boolean,
): number {
  if (hasEarlier && oldestRun) return oldestRun.ordinal;
  return Math.max(1, forkOrdinalOf(thread) + 1 - INHERITED_COLUMNS);
}

/**
 * The ordinals whose handoffs and transfers the first paint reads with the newest window `page`: those
 * drawn, through one past the newest run, where a pending transfer counts (at the thread's next run).
 */
export function firstPaintLinks(thread: ThreadHeader, page: RunPage): { from: number; to: number } {
  const runs = page.edges.map((edge) => edge.node);
  return { from: lowestShown(thread, runs[0], page.pageInfo.hasPreviousPage), to: newestOrdinal({ thread, runs }) + 1 };
}

export function shownFrom(loaded: Loaded): number {
  return lowestShown(loaded.thread, loaded.runs[0], loaded.hasEarlier);
}

/** The thread's header with nothing of its runs read yet: what the first window is added to. */
export function nothingRead(thread: ThreadHeader): Loaded {
  return {
    thread,
    runs: [],
    handoffs: new Map(),
    transfers: new Map(),
    forks: new Map(),
    subagents: new Map(),
    providerThreads: new Map(),
    earlierCursor: null,
    hasEarlier: false,
  };
}

const byIds = <T extends { id: string }>(known: Map<string, T>, read: T[]) =>
  new Map([...known, ...read.map((entry) => [entry.id, entry] as const)]);

/** `loaded` with a page of runs read backwards before its own, and the links of the ordinals it adds. */
export function withWindow(loaded: Loaded, page: RunPage, links: Links): Loaded {
  return {
    thread: loaded.thread,
    runs: [...page.edges.map((edge) => edge.node), ...loaded.runs],
    handoffs: byIds(loaded.handoffs, links.handoffs),
    transfers: byIds(loaded.transfers, links.transfers),
    forks: byIds(loaded.forks, links.forks),
    subagents: byIds(loaded.subagents, links.subagents),
    providerThreads: links.providerThreads.reduce(
      (known, read) => known.set(read.id, withCoverageOf(known.get(read.id), read)),
      new Map(loaded.providerThreads),
    ),
    earlierCursor: page.pageInfo.startCursor ?? loaded.earlierCursor,
    hasEarlier: page.pageInfo.hasPreviousPage,
  };
}

/**
 * A provider thread read again with the links of another window: its coverage is asked for window by
 * window (the service cuts it to the ordinals read), so what it knows and misses is of every window read.
 */
function withCoverageOf(known: ProviderThread | undefined, read: ProviderThread): ProviderThread {
  if (!known) return read;
  return {
    ...read,
    coverage: {
      nativeRanges: joined(known.coverage.nativeRanges, read.coverage.nativeRanges),
      missingRanges: joined(known.coverage.missingRanges, read.coverage.missingRanges),
      coveredThroughOrdinal: Math.max(known.coverage.coveredThroughOrdinal, read.coverage.coveredThroughOrdinal),
      handoffIds: [...new Set([...known.coverage.handoffIds, ...read.coverage.handoffIds])],
    },
  };
}

type Ordinals = ProviderThread['coverage']['nativeRanges'];

/** Ranges of windows that do not overlap, ascending, the ones that touch made one. */
export function joined(a: Ordinals, b: Ordinals): Ordinals {
  const ranges: Ordinals = [];
  for (const range of [...a, ...b].sort((x, y) => x.from - y.from)) {
    const last = ranges.at(-1);
    if (last && range.from <= last.to + 1) ranges[ranges.length - 1] = { ...last, to: Math.max(last.to, range.to) };
    else ranges.push(range);
  }
  return ranges;
}

// ---------------------------------------------------------------------------------------------
// The model of the drawing

/** One provider thread's lane: the runs it served and the handoffs delivered into it. */
export interface Lane extends Omit<
  ProviderThread,
  'coverage' | 'nativeThreadRef' | 'model' | 'runtimeMode' | 'createdAt'
> {
  /** Null for a lane known only from its runs. */
  coverage: ProviderThread['coverage'] | null;
  nativeThreadRef: string | null;
  model: string | null;
  runtimeMode: string | null;
  createdAt: string | null;
  runs: Run[];
  bands: Band[];
}

/** A handoff as drawn: named H1, H2 ... and spanning the columns it is drawn over. */
export interface Band extends Handoff {
  name: string;
  target: Run | null;
  transfers: Transfer[];
  /** The ordinals it is drawn over, or null when they are all before the first drawn. */
  span: { from: number; to: number } | null;
  /** It covers runs before the first drawn. */
  clipped: boolean;
  /** A merge-back, a task or a subagent result: drawn at the run that took it in. */
  atTarget: boolean;
  label: string;
  sourceProvider: string | null;
}

export type BranchKind = 'fork' | 'subagent' | 'merge-back' | 'result';

/** A thread leaving this one or arriving into it, at the ordinal it leaves from or arrives at. */
export interface Branch {
  kind: BranchKind;
  direction: 'in' | 'out';
  ordinal: number;
  threadId: string;
  title: string | null;
  status: string;
}

export interface Model {
  thread: ThreadHeader;
  lanes: Lane[];
  laneById: Map<string, Lane>;
  runById: Map<string, Run>;
  handoffs: Band[];
  handoffById: Map<string, Band>;
  transfers: Transfer[];
  /** The first and last ordinal drawn. */
  from: number;
  to: number;
  branches: Branch[];
  forkOrdinal: number;
}

const byCreation = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export function model(loaded: Loaded): Model {
  const { thread, runs } = loaded;
  const from = shownFrom(loaded);
  const forkOrdinal = forkOrdinalOf(thread);
  const lanes: Lane[] = [...loaded.providerThreads.values()]
    .sort((a, b) => a.seq - b.seq)
    .map((pt) => ({ ...pt, runs: [], bands: [] }));
  const laneById = new Map(lanes.map((lane) => [lane.id, lane]));
  const runById = new Map(runs.map((run) => [run.id, run]));
  for (const run of runs) {
    let lane = laneById.get(run.providerThread.id);
    if (!lane) {
      lane = {
        id: run.providerThread.id,
        provider: run.provider,
        status: 'IDLE',
        seq: lanes.length + 1,
        runs: [],
        bands: [],
        coverage: null,
        forkedFrom: null,
        nativeThreadRef: null,
        model: null,
        runtimeMode: null,
        createdAt: null,
      };
      lanes.push(lane);
      laneById.set(lane.id, lane);
    }
    lane.runs.push(run);
  }
  const transfers = [...loaded.transfers.values()].sort(byCreation);
  const handoffs = bands([...loaded.handoffs.values()].sort(byCreation), transfers, runById, laneById, from);
  for (const handoff of handoffs) laneById.get(handoff.toProviderThreadId)?.bands.push(handoff);
  const branches = branchesOf(loaded, transfers, runById).filter((branch) => branch.ordinal >= from);

  let to = Math.max(from, thread.headOrdinal, forkOrdinal, runs.at(-1)?.ordinal ?? 0);
  for (const handoff of handoffs) if (handoff.span) to = Math.max(to, handoff.span.to);
  for (const branch of branches) to = Math.max(to, branch.ordinal);
  return {
    thread,
    lanes,
    laneById,
    runById,
    handoffs,
    handoffById: new Map(handoffs.map((handoff) => [handoff.id, handoff])),
    transfers,
    from,
    to,
    branches,
    forkOrdinal,
  };
}

/**
 * Handoffs named H1, H2 ... in the order they were made among those read, each with the span it is
 * drawn over: the runs it covers, cut at the first ordinal drawn (clipped), or for a merge-back, a
 * task or a subagent result the run that took it in.
 */
function bands(
  handoffs: Handoff[],
  transfers: Transfer[],
  runById: Map<string, Run>,
  laneById: Map<string, Lane>,
  from: number,
): Band[] {
  const transfersByHandoff = new Map<string, Transfer[]>();
  for (const transfer of transfers) {
    if (!transfer.handoff) continue;
    const list = transfersByHandoff.get(transfer.handoff.id) ?? [];
    list.push(transfer);
    transfersByHandoff.set(transfer.handoff.id, list);
  }
  return handoffs.map((handoff, index) => {
    const target = runById.get(handoff.targetRunId) ?? null;
    const ownTransfers = transfersByHandoff.get(handoff.id) ?? [];
    const kinds = ownTransfers.map((transfer) => transfer.kind);
    // A merge-back covers the fork's ordinals, a task or a subagent result covers none: they are drawn at the run that took them in.
    const atTarget = handoff.strategy === 'FORK_DELTA_SUMMARY' || handoff.coveredRunOrdinals.to < 1;
    const covered = atTarget
      ? target
        ? { from: target.ordinal, to: target.ordinal }
        : null
      : { from: Math.max(1, handoff.coveredRunOrdinals.from), to: handoff.coveredRunOrdinals.to };
    const span = covered && covered.to >= from ? { from: Math.max(from, covered.from), to: covered.to } : null;
    let label = STRATEGY_LABELS[handoff.strategy] ?? handoff.strategy.toLowerCase();
    if (kinds.includes('SUBAGENT_RESULT')) label = 'subagent result';
    else if (kinds.includes('SUBAGENT_SPAWN')) label = 'subagent task';
    else if (kinds.includes('MERGE_BACK') && handoff.strategy !== 'FORK_DELTA_SUMMARY') label += ' + merge-back';
    const sourceProviders = handoff.fromProviderThreadIds
      .map((id) => laneById.get(id)?.provider)
      .filter((provider) => provider !== undefined);
    return {
      ...handoff,
      name: `H${index + 1}`,
      target,
      transfers: ownTransfers,
      span,
      clipped: Boolean(span && covered && covered.from < from),
      atTarget,
      label,
      sourceProvider: sourceProviders[0] ?? null,
    };
  });
}

export function transferStatus(transfer: Pick<Transfer, 'status' | 'resolution'>): string {
  return `${transfer.status.toLowerCase()}${transfer.resolution ? `, ${transfer.resolution.toLowerCase().replace(/_/g, ' ')}` : ''}`;
}

/** Forks and subagents leaving the thread, merge-backs and results coming in or going back, at the ordinal they leave from or arrive at. */
function branchesOf(loaded: Loaded, transfers: Transfer[], runById: Map<string, Run>): Branch[] {
  const branches: Branch[] = [];
  const { thread } = loaded;
  const here = thread.id;
  for (const fork of loaded.forks.values()) {
    const transfer = transfers.find((entry) => entry.kind === 'FORK' && entry.targetThreadId === fork.id);
    branches.push({
      kind: 'fork',
      direction: 'out',
      ordinal: fork.lineage.sourcePoint?.runOrdinal ?? 0,
      threadId: fork.id,
      title: fork.title,
      status: transfer ? transferStatus(transfer) : '',
    });
  }
  for (const child of loaded.subagents.values()) {
    branches.push({
      kind: 'subagent',
      direction: 'out',
      ordinal: child.lineage.sourcePoint?.runOrdinal ?? 0,
      threadId: child.id,
      title: child.title,
      status: '',
    });
  }
  for (const transfer of transfers) {
    const target = transfer.handoff ? runById.get(transfer.handoff.targetRunId) : null;
    const status = transfer.status.toLowerCase();
    if (transfer.kind === 'MERGE_BACK' && transfer.targetThreadId === here) {
      branches.push({
        kind: 'merge-back',
        direction: 'in',
        ordinal: target?.ordinal ?? thread.headOrdinal + 1,
        threadId: transfer.sourceThreadId,
        title: null,
        status,
      });
    } else if (transfer.kind === 'MERGE_BACK' && transfer.sourceThreadId === here) {
      branches.push({
        kind: 'merge-back',
        direction: 'out',
        ordinal: transfer.sourcePoint.runOrdinal ?? thread.headOrdinal,
        threadId: transfer.targetThreadId,
        title: null,
        status,
      });
    } else if (transfer.kind === 'SUBAGENT_RESULT' && transfer.targetThreadId === here) {
      branches.push({
        kind: 'result',
        direction: 'in',
        ordinal: target?.ordinal ?? 0,
        threadId: transfer.sourceThreadId,
        title: null,
        status,
      });
    } else if (transfer.kind === 'SUBAGENT_RESULT' && transfer.sourceThreadId === here) {
      branches.push({
        kind: 'result',
        direction: 'out',
        ordinal: transfer.sourcePoint.runOrdinal ?? thread.headOrdinal,
        threadId: transfer.targetThreadId,
        title: null,
        status,
      });
    }
  }
  return branches.sort((a, b) => a.ordinal - b.ordinal);
}

export function branchLabel(branch: Branch): string {
  const name = branch.title ? `${branch.title} (${branch.threadId})` : branch.threadId;
  const status = branch.status ? ` · ${branch.status}` : '';
  switch (branch.kind) {
    case 'fork':
      return `fork after #${branch.ordinal}: ${name}${status}`;
    case 'subagent':
      return `subagent spawned by #${branch.ordinal}: ${name}`;
    case 'merge-back':
      return branch.direction === 'in'
        ? `merge-back into #${branch.ordinal} from ${name}${status}`
        : `merged back into ${name} (fork runs up to #${branch.ordinal})${status}`;
    case 'result':
      return branch.direction === 'in'
        ? `subagent result into #${branch.ordinal} from ${name}`
        : `result returned to ${name}${status}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Geometry

export const LABEL_W = 200;
const GRID_X0 = 6;
export const HEADER_H = 40;
const LANE_PAD = 10;
export const RUN_H = 44;
export const BAND_H = 24;
export const BAND_GAP = 6;
const LANE_GAP = 10;
const BRANCH_ROW_H = 30;
const LANE_MIN_H = 86;

/** Where a lane is drawn, top to bottom: its box, the rows of its bands, then its runs. */
export interface LaneBox {
  top: number;
  bandTop: number;
  runTop: number;
  height: number;
}

export interface Placement {
  columns: number;
  colW: number;
  /** The left edge and the centre of an ordinal's column. */
  colX: (ordinal: number) => number;
  colCx: (ordinal: number) => number;
  gridRight: number;
  lanes: Map<string, LaneBox>;
  /** Each drawn band's row in its lane, from the top. */
  bandRows: Map<string, number>;
  lanesBottom: number;
  /** The centre line of each branch's row, in the order of model.branches. */
  branchRowY: number[];
  width: number;
  height: number;
}

/** Wide enough for the longest run label ("#100000" needs more than "#9"), filling `drawingWidth` when it can. */
export function columnWidth(columns: number, highestOrdinal: number, drawingWidth: number): number {
  const available = Math.max(480, drawingWidth - LABEL_W - 36);
  const narrowest = Math.max(46, Math.ceil(approxWidth(`#${highestOrdinal}`, 14)) + 16);
  return Math.max(narrowest, Math.min(96, Math.floor(available / columns)));
}

/** Bands that overlap go on separate rows, each in the first row free at its first ordinal; returns the rows used. */
export function bandRows(bands: readonly Band[], rows: Map<string, number>): number {
  const rowsEnd: number[] = [];
  const placed = bands
    .filter((band): band is Band & { span: { from: number; to: number } } => band.span !== null)
    .sort((a, b) => a.span.from - b.span.from || a.createdAt.localeCompare(b.createdAt));
  for (const band of placed) {
    let row = rowsEnd.findIndex((end) => end < band.span.from);
    if (row === -1) {
      row = rowsEnd.length;
      rowsEnd.push(0);
    }
    rowsEnd[row] = band.span.to;
    rows.set(band.id, row);
  }
  return rowsEnd.length;
}

/** The pixels of the drawing of `model` in a drawing area `drawingWidth` wide. */
export function place(model: Model, drawingWidth: number): Placement {
  const { lanes, from, to, branches } = model;
  const columns = to - from + 1;
  const colW = columnWidth(columns, to, drawingWidth);
  const colX = (ordinal: number) => GRID_X0 + (ordinal - from) * colW;
  const colCx = (ordinal: number) => colX(ordinal) + colW / 2;
  const gridRight = colX(to + 1);

  const boxes = new Map<string, LaneBox>();
  const rowsOfBands = new Map<string, number>();
  let y = HEADER_H;
  for (const lane of lanes) {
    const rows = bandRows(lane.bands, rowsOfBands);
    const box = { top: y, bandTop: y + LANE_PAD, runTop: 0, height: 0 };
    box.runTop = box.bandTop + rows * (BAND_H + BAND_GAP) + (rows ? 4 : 0);
    box.height = box.runTop + RUN_H + LANE_PAD - y;
    if (box.height < LANE_MIN_H) {
      // Room for the four lines of the label; the runs stay centred.
      const extra = (LANE_MIN_H - box.height) / 2;
      box.bandTop += extra;
      box.runTop += extra;
      box.height = LANE_MIN_H;
    }
    boxes.set(lane.id, box);
    y += box.height + LANE_GAP;
  }
  const lanesBottom = y - LANE_GAP;
  let branchWidth = 0;
  for (const branch of branches)
    branchWidth = Math.max(branchWidth, colCx(branch.ordinal) + 30 + approxWidth(branchLabel(branch), 12.5));
  return {
    columns,
    colW,
    colX,
    colCx,
    gridRight,
    lanes: boxes,
    bandRows: rowsOfBands,
    lanesBottom,
    branchRowY: branches.map((_, index) => lanesBottom + 18 + index * BRANCH_ROW_H + BRANCH_ROW_H / 2),
    width: Math.max(gridRight + 8, branchWidth + 12),
    height: lanesBottom + (branches.length ? 18 + branches.length * BRANCH_ROW_H : 12),
  };
}
