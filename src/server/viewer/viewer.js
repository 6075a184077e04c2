// Threadline lineage viewer. Reads one thread through the public GraphQL API (POST /graphql, with the
// page's ?token= as a bearer token) and draws it as people think of it: runs left to right by
// ordinal, one lane per provider thread, handoffs as bands over the runs they cover in the lane they
// were delivered to, forks, subagents and merge-backs as branches below. Plain JS and SVG, no build.
//
// A thread may hold 100,000 runs, so the page never reads all of them: it opens on a window of the
// newest runs with the handoffs and transfers made for them, "Load earlier runs" reads the window
// before it, and the long texts (messages, facts, reasons, summaries) are read for the one run or
// handoff clicked, cut to what its panel shows. The first paint costs the same however long the thread is.

const SVG_NS = 'http://www.w3.org/2000/svg';
const params = new URLSearchParams(location.search);
const token = params.get('token') || null;
const threadId = decodeURIComponent(location.pathname.replace(/^\/lineage\//, '').replace(/\/+$/, ''));
const GRAPHQL_URL = new URL('/graphql', location.href).href;

/** Runs read per window (also the default of the queries' $last). */
const WINDOW_RUNS = 200;
/** The widest ordinal range Thread.handoffs and Thread.transfers answer at once. */
const LINKS_RANGE = 1000;
/** A fork's inherited runs are drawn as one hatched region of at most this many columns. */
const INHERITED_COLUMNS = 20;

// Each query is complete with $id alone, the other variables optional: test/reliability/hostile-input.test.ts
// sends every *_QUERY of this file that way to check it stays within the service's query limits.
const RUN_FIELDS = `id ordinal provider status providerThread { id } plan { decision providerThreadAction }`;
const RUN_PAGE = `pageInfo { hasPreviousPage startCursor } edges { node { ${RUN_FIELDS} } }`;
const THREAD_QUERY = `query ThreadWindow($id: ID!, $last: Int = 200) {
  thread(id: $id) {
    id title headOrdinal
    lineage { parent { id title } relationshipToParent sourcePoint { runOrdinal checkpointId } }
    ancestors { id title }
    forks(first: 100) { id title lineage { sourcePoint { runOrdinal checkpointId } } }
    subagents(first: 100) { id title lineage { sourcePoint { runOrdinal } } }
    providerThreads { id provider status nativeThreadRef model runtimeMode createdAt
      forkedFrom { id threadId provider }
      coverage { nativeRanges { from to } missingRanges { from to } coveredThroughOrdinal handoffIds } }
    runs(last: $last) { ${RUN_PAGE} }
  }
}`;
const EARLIER_RUNS_QUERY = `query ThreadEarlierRuns($id: ID!, $last: Int = 200, $before: String) {
  thread(id: $id) { runs(last: $last, before: $before) { ${RUN_PAGE} } }
}`;
const LINKS_QUERY = `query ThreadWindowLinks($id: ID!, $from: Int, $to: Int) {
  thread(id: $id) {
    handoffs(fromOrdinal: $from, toOrdinal: $to) { id targetRunId fromProviderThreadIds toProviderThreadId coveredRunOrdinals { from to } strategy status createdAt }
    transfers(fromOrdinal: $from, toOrdinal: $to) { id kind sourceThreadId targetThreadId sourcePoint { runOrdinal } basePoint { runOrdinal } status resolution createdAt
      handoff { id targetRunId } }
  }
}`;
// The details panels read a run's or a handoff's texts cut to what they show (a run may hold two
// 100,000-character messages and 500 facts of 20,000 characters), with the whole lengths to say so.
const RUN_DETAILS_QUERY = `query RunDetails($id: ID!) {
  run(id: $id) { id model runtimeMode userMessage(maxChars: 2000) userMessageLength assistantMessage(maxChars: 2000) assistantMessageLength
    error createdAt completedAt contextHandoff { id }
    factCount facts(first: 40) { kind text(maxChars: 600) textLength status }
    plan { handoffStrategy coveredRunOrdinals { from to } stalenessSignals reasons } }
}`;
const HANDOFF_DETAILS_QUERY = `query HandoffDetails($id: ID!) {
  contextHandoff(id: $id) { id summaryText(maxChars: 20000) createdByProvider delivery source length budgetChars omissions failureReason supersedes { id } supersededBy { id } }
}`;
/** What the queries above ask for, in characters (Unicode code points), and how many facts. */
const SHOWN = { message: 2000, factText: 600, facts: 40, summary: 20000 };

// ---------------------------------------------------------------------------------------------
// Reading

class ViewerError extends Error {}

async function graphql(query, variables) {
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(GRAPHQL_URL, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  } catch (error) {
    throw new ViewerError(`The service at ${GRAPHQL_URL} does not answer (${error.message}).`);
  }
  const body = await response.json().catch(() => null);
  if (response.status === 401 || body?.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED') {
    throw new ViewerError(token ? 'The token was refused by the service.' : 'The service needs a bearer token: open this page with ?token=<your API key>.');
  }
  if (!body) throw new ViewerError(`The service answered ${response.status} without JSON.`);
  if (body.errors?.length) throw new ViewerError(body.errors.map((error) => error.message).join('; '));
  return body.data;
}

/** What has been read of the thread so far: its header, the runs of the window (oldest first), and the handoffs and transfers of those runs. */
const view = {
  thread: null,
  runs: [],
  handoffs: new Map(),
  transfers: new Map(),
  earlierCursor: null,
  hasEarlier: false,
};

function forkOrdinalOf(thread) {
  return thread.lineage.relationshipToParent === 'FORK' ? thread.lineage.sourcePoint?.runOrdinal ?? 0 : 0;
}

/** The highest ordinal of the thread: its newest run, or for a fork without runs yet its fork point. */
function newestOrdinal() {
  return Math.max(view.thread.headOrdinal, view.runs.at(-1)?.ordinal ?? 0);
}

/**
 * The lowest ordinal drawn once `oldestRun` is the oldest run read: that run while earlier ones remain,
 * else the thread's first (for a fork, the last few of the runs it inherited).
 */
function lowestShown(oldestRun, hasEarlier) {
  if (hasEarlier) return oldestRun.ordinal;
  return Math.max(1, forkOrdinalOf(view.thread) + 1 - INHERITED_COLUMNS);
}

function shownFrom() {
  return lowestShown(view.runs[0], view.hasEarlier);
}

/** The handoffs and transfers of ordinals from..to, read in ranges the API accepts. */
async function readLinks(from, to) {
  const links = { handoffs: [], transfers: [] };
  for (let start = from; start <= to; start += LINKS_RANGE) {
    const read = (await graphql(LINKS_QUERY, { id: view.thread.id, from: start, to: Math.min(to, start + LINKS_RANGE - 1) })).thread;
    links.handoffs.push(...read.handoffs);
    links.transfers.push(...read.transfers);
  }
  return links;
}

/** Adds a page of runs read backwards, with the handoffs and transfers of the ordinals it adds to the drawing. */
function addWindow(page, links) {
  view.runs = [...page.edges.map((edge) => edge.node), ...view.runs];
  view.earlierCursor = page.pageInfo.startCursor ?? view.earlierCursor;
  view.hasEarlier = page.pageInfo.hasPreviousPage;
  for (const handoff of links.handoffs) view.handoffs.set(handoff.id, handoff);
  for (const transfer of links.transfers) view.transfers.set(transfer.id, transfer);
}

/**
 * The first paint: the thread, its provider threads and the newest window. A pending transfer counts
 * at the ordinal of the thread's next run, so the window's links reach one past its newest run. False
 * when there is no such thread.
 */
async function loadThread(id) {
  const thread = (await graphql(THREAD_QUERY, { id, last: WINDOW_RUNS })).thread;
  if (!thread) return false;
  const { runs: page, ...header } = thread;
  view.thread = header;
  const newest = Math.max(header.headOrdinal, page.edges.at(-1)?.node.ordinal ?? 0);
  addWindow(page, await readLinks(lowestShown(page.edges[0]?.node, page.pageInfo.hasPreviousPage), newest + 1));
  return true;
}

/** The window before the first run drawn; nothing changes unless all of it was read. */
async function loadEarlierRuns() {
  const previousFrom = shownFrom();
  const page = (await graphql(EARLIER_RUNS_QUERY, { id: view.thread.id, last: WINDOW_RUNS, before: view.earlierCursor })).thread.runs;
  addWindow(page, await readLinks(lowestShown(page.edges[0]?.node, page.pageInfo.hasPreviousPage), previousFrom - 1));
}

const runDetails = new Map();
const handoffDetails = new Map();

/** One query per run or handoff clicked, kept for the next click. */
function detailsOf(cache, query, field, id) {
  if (!cache.has(id)) {
    const request = graphql(query, { id }).then((data) => data[field]);
    request.catch(() => cache.delete(id));
    cache.set(id, request);
  }
  return cache.get(id);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const PROVIDER_COLOURS = {
  codex: { base: '#0d8a6a', light: '#e3f4ee', dark: '#075c46' },
  claude: { base: '#c8643b', light: '#fbece4', dark: '#8c3f1f' },
};
const PALETTE = [
  { base: '#4f5bd5', light: '#e9ebfb', dark: '#2f389b' },
  { base: '#0b7fb0', light: '#e2f2f9', dark: '#075777' },
  { base: '#b3387a', light: '#f8e6ef', dark: '#7a2051' },
  { base: '#8a6d0b', light: '#f6f0dc', dark: '#5c4807' },
  { base: '#6b46c1', light: '#efe9fa', dark: '#472c86' },
];
const assignedColours = new Map();
function colourOf(provider) {
  if (PROVIDER_COLOURS[provider]) return PROVIDER_COLOURS[provider];
  if (!assignedColours.has(provider)) assignedColours.set(provider, PALETTE[assignedColours.size % PALETTE.length]);
  return assignedColours.get(provider);
}

const STRATEGY_LABELS = {
  DELTA_SINCE_TARGET_LAST_SEEN: 'delta',
  FULL_THREAD_SUMMARY: 'full summary',
  CHECKPOINT_SUMMARY: 'checkpoint summary',
  MANUAL_CONTEXT: 'manual context',
  FORK_DELTA_SUMMARY: 'merge-back',
};
const ACTION_LABELS = { CREATE: 'new thread', REUSE: 'reuse', RESUME: 'resume', NATIVE_FORK: 'native fork', NONE: '' };
const TRANSFER_LABELS = {
  FORK: 'fork context',
  PROVIDER_HANDOFF: 'provider handoff',
  MERGE_BACK: 'merge-back',
  SUBAGENT_SPAWN: 'subagent task',
  SUBAGENT_RESULT: 'subagent result',
};

function svg(tag, attributes = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

function html(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function svgText(x, y, text, attributes = {}) {
  const node = svg('text', { x, y, ...attributes });
  node.textContent = text;
  return node;
}

function tooltip(text) {
  const node = svg('title');
  node.textContent = text;
  return node;
}

function threadHref(id) {
  return `/lineage/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

function threadLink(thread, fallbackId) {
  const id = thread?.id ?? fallbackId;
  return html('a', { href: threadHref(id), text: thread?.title ? `${thread.title} (${id})` : id });
}

function shortId(id) {
  return id.length > 14 ? `${id.slice(0, 11)}…` : id;
}

const NUMBER = new Intl.NumberFormat('en-US');

function count(value) {
  return NUMBER.format(value);
}

function range(from, to) {
  return from === to ? count(from) : `${count(from)}–${count(to)}`;
}

/** Ordinal ranges, compactly: "1–5, 9". */
function compactRanges(ranges) {
  return ranges.map((entry) => range(entry.from, entry.to)).join(', ');
}

function approxWidth(text, size) {
  return text.length * size * 0.58;
}

function when(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

// ---------------------------------------------------------------------------------------------
// The model of the drawing

const byCreation = (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

function buildModel() {
  const { thread, runs } = view;
  const from = shownFrom();
  const forkOrdinal = forkOrdinalOf(thread);
  const lanes = thread.providerThreads.map((pt, index) => ({ ...pt, seq: index + 1, runs: [], bands: [] }));
  const laneById = new Map(lanes.map((lane) => [lane.id, lane]));
  const runById = new Map(runs.map((run) => [run.id, run]));
  for (const run of runs) {
    let lane = laneById.get(run.providerThread.id);
    if (!lane) {
      lane = { id: run.providerThread.id, provider: run.provider, status: 'IDLE', seq: lanes.length + 1, runs: [], bands: [], coverage: null, forkedFrom: null };
      lanes.push(lane);
      laneById.set(lane.id, lane);
    }
    lane.runs.push(run);
  }
  const transfers = [...view.transfers.values()].sort(byCreation);
  const handoffs = buildHandoffs([...view.handoffs.values()].sort(byCreation), transfers, runById, laneById, from);
  for (const handoff of handoffs) laneById.get(handoff.toProviderThreadId)?.bands.push(handoff);
  const branches = buildBranches(thread, transfers, runById).filter((branch) => branch.ordinal >= from);

  let to = Math.max(from, thread.headOrdinal, forkOrdinal, runs.at(-1)?.ordinal ?? 0);
  for (const handoff of handoffs) if (handoff.span) to = Math.max(to, handoff.span.to);
  for (const branch of branches) to = Math.max(to, branch.ordinal);
  return { thread, lanes, laneById, runById, handoffs, handoffById: new Map(handoffs.map((handoff) => [handoff.id, handoff])), transfers, from, to, branches, forkOrdinal };
}

/**
 * Handoffs named H1, H2 ... in the order they were made among those read, each with the span it is
 * drawn over: the runs it covers, cut at the first ordinal drawn (clipped), or for a merge-back, a
 * task or a subagent result the run that took it in.
 */
function buildHandoffs(handoffs, transfers, runById, laneById, from) {
  const transfersByHandoff = new Map();
  for (const transfer of transfers) if (transfer.handoff) {
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
      ? target ? { from: target.ordinal, to: target.ordinal } : null
      : { from: Math.max(1, handoff.coveredRunOrdinals.from), to: handoff.coveredRunOrdinals.to };
    const span = covered && covered.to >= from ? { from: Math.max(from, covered.from), to: covered.to } : null;
    let label = STRATEGY_LABELS[handoff.strategy] ?? handoff.strategy.toLowerCase();
    if (kinds.includes('SUBAGENT_RESULT')) label = 'subagent result';
    else if (kinds.includes('SUBAGENT_SPAWN')) label = 'subagent task';
    else if (kinds.includes('MERGE_BACK') && handoff.strategy !== 'FORK_DELTA_SUMMARY') label += ' + merge-back';
    const sourceProviders = handoff.fromProviderThreadIds.map((id) => laneById.get(id)?.provider).filter(Boolean);
    return { ...handoff, name: `H${index + 1}`, target, transfers: ownTransfers, span, clipped: Boolean(span && covered.from < from), atTarget, label, sourceProvider: sourceProviders[0] ?? null };
  });
}

function transferStatus(transfer) {
  return `${transfer.status.toLowerCase()}${transfer.resolution ? `, ${transfer.resolution.toLowerCase().replace(/_/g, ' ')}` : ''}`;
}

/** Forks and subagents leaving the thread, merge-backs and results coming in or going back, at the ordinal they leave from or arrive at. */
function buildBranches(thread, transfers, runById) {
  const branches = [];
  const here = thread.id;
  for (const fork of thread.forks) {
    const transfer = transfers.find((entry) => entry.kind === 'FORK' && entry.targetThreadId === fork.id);
    branches.push({ kind: 'fork', direction: 'out', ordinal: fork.lineage.sourcePoint?.runOrdinal ?? 0, threadId: fork.id, title: fork.title, status: transfer ? transferStatus(transfer) : '' });
  }
  for (const child of thread.subagents) {
    branches.push({ kind: 'subagent', direction: 'out', ordinal: child.lineage.sourcePoint?.runOrdinal ?? 0, threadId: child.id, title: child.title, status: '' });
  }
  for (const transfer of transfers) {
    const target = transfer.handoff ? runById.get(transfer.handoff.targetRunId) : null;
    const status = transfer.status.toLowerCase();
    if (transfer.kind === 'MERGE_BACK' && transfer.targetThreadId === here) {
      branches.push({ kind: 'merge-back', direction: 'in', ordinal: target?.ordinal ?? thread.headOrdinal + 1, threadId: transfer.sourceThreadId, title: null, status });
    } else if (transfer.kind === 'MERGE_BACK' && transfer.sourceThreadId === here) {
      branches.push({ kind: 'merge-back', direction: 'out', ordinal: transfer.sourcePoint.runOrdinal ?? thread.headOrdinal, threadId: transfer.targetThreadId, title: null, status });
    } else if (transfer.kind === 'SUBAGENT_RESULT' && transfer.targetThreadId === here) {
      branches.push({ kind: 'result', direction: 'in', ordinal: target?.ordinal ?? 0, threadId: transfer.sourceThreadId, title: null, status });
    } else if (transfer.kind === 'SUBAGENT_RESULT' && transfer.sourceThreadId === here) {
      branches.push({ kind: 'result', direction: 'out', ordinal: transfer.sourcePoint.runOrdinal ?? thread.headOrdinal, threadId: transfer.targetThreadId, title: null, status });
    }
  }
  return branches.sort((a, b) => a.ordinal - b.ordinal);
}

// ---------------------------------------------------------------------------------------------
// Drawing

const LABEL_W = 200;
const GRID_X0 = 6;
const HEADER_H = 40;
const LANE_PAD = 10;
const RUN_H = 44;
const BAND_H = 24;
const BAND_GAP = 6;
const LANE_GAP = 10;
const BRANCH_ROW_H = 30;
const LANE_MIN_H = 86;

let model = null;
let selected = null;

/** Wide enough for the longest run label ("#100000" needs more than "#9"). */
function columnWidth(columns, highestOrdinal) {
  const available = Math.max(480, (document.getElementById('drawing').clientWidth || 900) - LABEL_W - 36);
  const narrowest = Math.max(46, Math.ceil(approxWidth(`#${highestOrdinal}`, 14)) + 16);
  return Math.max(narrowest, Math.min(96, Math.floor(available / columns)));
}

function assignBandRows(bands) {
  const rowsEnd = [];
  const placed = [...bands].filter((band) => band.span).sort((a, b) => a.span.from - b.span.from || a.createdAt.localeCompare(b.createdAt));
  for (const band of placed) {
    let row = rowsEnd.findIndex((end) => end < band.span.from);
    if (row === -1) {
      row = rowsEnd.length;
      rowsEnd.push(0);
    }
    rowsEnd[row] = band.span.to;
    band.row = row;
  }
  return rowsEnd.length;
}

function defs() {
  return svg('defs', {}, [
    svg('pattern', { id: 'hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, [svg('rect', { width: 8, height: 8, fill: '#f3f4f6' }), svg('line', { x1: 0, y1: 0, x2: 0, y2: 8, stroke: '#c9ced6', 'stroke-width': 3 })]),
    svg('pattern', { id: 'inherited', width: 10, height: 10, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(-45)' }, [svg('rect', { width: 10, height: 10, fill: '#f5f3ff' }), svg('line', { x1: 0, y1: 0, x2: 0, y2: 10, stroke: '#e4defc', 'stroke-width': 4 })]),
    svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, [svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#475569' })]),
    svg('marker', { id: 'arrow-muted', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, [svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#9aa3af' })]),
    svg('marker', { id: 'arrow-branch', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' }, [svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#6d28d9' })]),
    svg('marker', { id: 'arrow-blue', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' }, [svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#2563eb' })]),
  ]);
}

const LANE_BADGES = {
  STALE: { text: 'STALE · replaced', fill: '#e5e7eb', colour: '#374151' },
  DIVERGENT: { text: 'DIVERGENT', fill: '#fde2e1', colour: '#a61b1b' },
  ROLLED_BACK: { text: 'ROLLED BACK · awaiting native', fill: '#fef3c7', colour: '#92400e' },
  RESUME_FAILED: { text: 'RESUME FAILED', fill: '#fde2e1', colour: '#a61b1b' },
  CLOSED: { text: 'CLOSED', fill: '#e5e7eb', colour: '#374151' },
  ACTIVE: { text: 'active', fill: '#dcfce7', colour: '#166534' },
  IDLE: { text: 'idle', fill: '#f1f5f9', colour: '#475569' },
};

/**
 * Draws the model; `reveal` (an ordinal) scrolls so that the runs just before it are in view, as after
 * loading earlier runs. Otherwise the view stays where it was, or opens on the newest runs.
 */
function draw({ reveal = null } = {}) {
  const { thread, lanes, from, to, branches, forkOrdinal } = model;
  const columns = to - from + 1;
  const colW = columnWidth(columns, to);
  // Two SVGs side by side: the lane labels stay put while the runs scroll horizontally.
  const colX = (ordinal) => GRID_X0 + (ordinal - from) * colW;
  const colCx = (ordinal) => colX(ordinal) + colW / 2;
  const gridRight = colX(to + 1);

  // Vertical layout of the lanes.
  let y = HEADER_H;
  for (const lane of lanes) {
    const rows = assignBandRows(lane.bands);
    lane.top = y;
    lane.bandTop = y + LANE_PAD;
    lane.runTop = lane.bandTop + rows * (BAND_H + BAND_GAP) + (rows ? 4 : 0);
    lane.height = lane.runTop + RUN_H + LANE_PAD - y;
    if (lane.height < LANE_MIN_H) {
      // Room for the four lines of the label; the runs stay centred.
      const extra = (LANE_MIN_H - lane.height) / 2;
      lane.bandTop += extra;
      lane.runTop += extra;
      lane.height = LANE_MIN_H;
    }
    y += lane.height + LANE_GAP;
  }
  const lanesBottom = y - LANE_GAP;
  let branchWidth = 0;
  for (const branch of branches) branchWidth = Math.max(branchWidth, colCx(branch.ordinal) + 30 + approxWidth(branchLabel(branch), 12.5));
  const height = lanesBottom + (branches.length ? 18 + branches.length * BRANCH_ROW_H : 12);
  const width = Math.max(gridRight + 8, branchWidth + 12);

  const labels = svg('svg', { width: LABEL_W, height, viewBox: `0 0 ${LABEL_W} ${height}`, class: 'lane-labels', 'aria-label': 'Provider threads' });
  labels.append(svgText(12, 24, 'run', { class: 'axis-title' }));
  const root = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Lineage of thread ${thread.id}`, class: 'lineage-svg', 'data-columns': columns, 'data-from': from });
  root.append(defs());
  root.append(drawGrid({ thread, from, to, forkOrdinal, colX, colCx, gridRight, lanesBottom }));

  // Lanes, with their runs and the handoffs delivered into them.
  const arrows = svg('g', { class: 'arrows' });
  const laneX = forkOrdinal >= from ? colX(forkOrdinal + 1) - 3 : 0;
  for (const lane of lanes) {
    const colour = colourOf(lane.provider);
    const alert = lane.status === 'DIVERGENT' || lane.status === 'RESUME_FAILED';
    const group = svg('g', { 'data-lane': lane.id, 'data-provider': lane.provider, 'data-lane-status': lane.status, class: `lane status-${lane.status.toLowerCase()}` });
    group.append(svg('rect', { x: laneX, y: lane.top, width: gridRight - laneX, height: lane.height, rx: 8, fill: lane.status === 'STALE' ? 'url(#hatch)' : colour.light, class: 'lane-bg' }));
    if (alert) group.append(svg('rect', { x: laneX + 1, y: lane.top + 1, width: gridRight - laneX - 2, height: lane.height - 2, rx: 8, fill: 'none', class: 'lane-alert' }));
    for (const band of lane.bands) if (band.span) drawBand(group, arrows, band, lane, colX, colCx);
    for (const run of lane.runs) drawRun(group, run, lane, colX, colW);
    root.append(group);
    labels.append(laneLabel(lane, colour, alert));
  }
  root.append(arrows);
  branches.forEach((branch, index) => root.append(drawBranch(branch, lanesBottom + 18 + index * BRANCH_ROW_H + BRANCH_ROW_H / 2, colCx(branch.ordinal), lanesBottom)));

  const drawing = document.getElementById('drawing');
  const previous = drawing.querySelector('.drawing-scroll');
  const scrollLeft = previous ? previous.scrollLeft : null;
  const scroller = html('div', { class: 'drawing-scroll' }, [root]);
  drawing.replaceChildren(html('div', { class: 'drawing-labels' }, [labels]), scroller);
  // Open on the newest runs (a long thread scrolls to its head) and stay there on a redraw; after
  // loading earlier runs, the newest of them come into view at the right.
  if (reveal !== null) scroller.scrollLeft = Math.max(0, colX(reveal + 2) - scroller.clientWidth);
  else scroller.scrollLeft = scrollLeft ?? scroller.scrollWidth;
  drawing.dataset.state = 'ready';
  if (selected) reselect();
}

/** Column header, grid lines, the head's pill and a fork's inherited region. */
function drawGrid({ thread, from, to, forkOrdinal, colX, colCx, gridRight, lanesBottom }) {
  const grid = svg('g', { class: 'grid' });
  if (forkOrdinal >= from) {
    const x1 = colX(from);
    const x2 = colX(forkOrdinal + 1);
    grid.append(svg('rect', { x: x1, y: HEADER_H - 6, width: x2 - x1, height: lanesBottom - HEADER_H + 12, fill: 'url(#inherited)', rx: 6, class: 'inherited' }, [tooltip(`Runs ${range(1, forkOrdinal)} are inherited from ${thread.lineage.parent.id}`)]));
    const cx = (x1 + x2) / 2;
    const cy = (HEADER_H + lanesBottom) / 2;
    const parentName = thread.lineage.parent.title || thread.lineage.parent.id;
    const maxChars = Math.max(6, Math.floor((x2 - x1 - 12) / 7));
    const lines = [`runs ${range(1, forkOrdinal)} inherited`, 'from', parentName.length > maxChars ? `${parentName.slice(0, maxChars - 1)}…` : parentName];
    const label = svg('text', { x: cx, y: cy - 14, 'text-anchor': 'middle', class: 'inherited-label' });
    lines.forEach((line, index) => {
      const span = svg('tspan', { x: cx, dy: index ? 16 : 0 });
      span.textContent = line;
      label.append(span);
    });
    grid.append(svg('a', { href: threadHref(thread.lineage.parent.id), class: 'inherited-link' }, [label]));
  }
  for (let ordinal = from; ordinal <= to; ordinal++) {
    const isHead = ordinal === thread.headOrdinal;
    grid.append(svg('line', { x1: colX(ordinal), y1: HEADER_H - 4, x2: colX(ordinal), y2: lanesBottom, class: 'gridline' }));
    if (isHead) {
      const pillW = Math.max(42, approxWidth(String(ordinal), 13) + 16);
      grid.append(svg('rect', { x: colCx(ordinal) - pillW / 2, y: 7, width: pillW, height: 24, rx: 12, class: 'head-pill' }, [tooltip('head: the newest live run')]));
    }
    grid.append(svgText(colCx(ordinal), 24, String(ordinal), { class: isHead ? 'col-label head' : 'col-label', 'text-anchor': 'middle' }));
  }
  grid.append(svg('line', { x1: gridRight, y1: HEADER_H - 4, x2: gridRight, y2: lanesBottom, class: 'gridline' }));
  return grid;
}

/** A branch below the lanes: forks and subagents leaving, merge-backs and results coming in. */
function drawBranch(branch, rowY, x, lanesBottom) {
  const group = svg('g', { class: `branch branch-${branch.kind}`, 'data-branch': branch.kind, 'data-branch-thread': branch.threadId, 'data-branch-direction': branch.direction });
  const blue = branch.kind === 'subagent' || branch.kind === 'result';
  const line = branch.direction === 'in'
    ? svg('path', { d: `M${x + 12},${rowY} Q${x},${rowY} ${x},${rowY - 10} L${x},${lanesBottom + 4}`, class: 'branch-line', 'marker-end': blue ? 'url(#arrow-blue)' : 'url(#arrow-branch)' })
    : svg('path', { d: `M${x},${lanesBottom + 2} L${x},${rowY - 10} Q${x},${rowY} ${x + 12},${rowY}`, class: 'branch-line' });
  group.append(line);
  group.append(svg('circle', { cx: x + 16, cy: rowY, r: 4, class: 'branch-dot' }));
  const link = svg('a', { href: threadHref(branch.threadId) }, [svgText(x + 26, rowY + 4.5, branchLabel(branch), { class: 'branch-label' })]);
  group.append(link, tooltip(`${branch.kind} ${branch.direction === 'in' ? 'from' : 'to'} ${branch.threadId}${branch.status ? ` (${branch.status})` : ''}`));
  return group;
}

/** A lane's label: provider, its number on the thread, its id, its status and what it knows. */
function laneLabel(lane, colour, alert) {
  const label = svg('g', { class: `lane-label status-${lane.status.toLowerCase()}`, 'data-lane-label': lane.id, tabindex: 0, role: 'button', 'aria-label': `${lane.provider} provider thread ${lane.id}, ${lane.status.toLowerCase()}` });
  label.append(svg('rect', { x: 4, y: lane.top, width: LABEL_W - 8, height: lane.height, rx: 8, fill: '#ffffff', class: alert ? 'lane-label-bg alert' : 'lane-label-bg' }));
  label.append(svg('rect', { x: 4, y: lane.top, width: 7, height: lane.height, rx: 3, fill: colour.base }));
  const textTop = lane.top + Math.max(19, lane.height / 2 - 23);
  label.append(svgText(20, textTop, lane.provider, { class: 'lane-provider', fill: colour.dark }));
  label.append(svgText(20 + approxWidth(lane.provider, 15) + 8, textTop, `#${lane.seq}`, { class: 'lane-seq' }));
  label.append(svgText(20, textTop + 17, shortId(lane.id), { class: 'lane-id' }));
  const badge = LANE_BADGES[lane.status] ?? { text: lane.status.toLowerCase(), fill: '#f1f5f9', colour: '#475569' };
  const badgeW = approxWidth(badge.text, badge.text === badge.text.toUpperCase() ? 12.4 : 10.8) + 14;
  label.append(svg('rect', { x: 20, y: textTop + 24, width: badgeW, height: 17, rx: 8.5, fill: badge.fill, class: 'lane-badge' }));
  label.append(svgText(27, textTop + 36.5, badge.text, { class: 'lane-badge-text', fill: badge.colour }));
  if (lane.coverage) {
    const missing = lane.coverage.missingRanges;
    const knows = lane.coverage.coveredThroughOrdinal ? `knows to #${lane.coverage.coveredThroughOrdinal}` : 'knows nothing yet';
    let knowsText = missing.length ? `${knows} · misses ${compactRanges(missing)}` : knows;
    if (knowsText.length > 32) knowsText = `${knowsText.slice(0, 31)}…`;
    label.append(svgText(20, textTop + 55, knowsText, { class: 'lane-knows' }));
  }
  label.append(tooltip(`${lane.provider} provider thread ${lane.id}\nstatus ${lane.status}${lane.forkedFrom ? `\nnatively forked from ${lane.forkedFrom.id} (thread ${lane.forkedFrom.threadId})` : ''}`));
  wireSelect(label, () => showLane(lane));
  return label;
}

function branchLabel(branch) {
  const name = branch.title ? `${branch.title} (${branch.threadId})` : branch.threadId;
  const status = branch.status ? ` · ${branch.status}` : '';
  switch (branch.kind) {
    case 'fork': return `fork after #${branch.ordinal}: ${name}${status}`;
    case 'subagent': return `subagent spawned by #${branch.ordinal}: ${name}`;
    case 'merge-back': return branch.direction === 'in' ? `merge-back into #${branch.ordinal} from ${name}${status}` : `merged back into ${name} (fork runs up to #${branch.ordinal})${status}`;
    case 'result': return branch.direction === 'in' ? `subagent result into #${branch.ordinal} from ${name}` : `result returned to ${name}${status}`;
    default: return name;
  }
}

/** A handoff's band; one that covers runs before the first drawn is cut at the left edge, with a chevron pointing to them. */
function drawBand(group, arrows, band, lane, colX, colCx) {
  const x1 = band.clipped ? colX(band.span.from) : colX(band.span.from) + 3;
  const x2 = colX(band.span.to + 1) - 3;
  const yTop = lane.bandTop + band.row * (BAND_H + BAND_GAP);
  const colour = colourOf(band.sourceProvider ?? lane.provider);
  const standing = band.status === 'READY' || band.status === 'PENDING';
  const node = svg('g', {
    'data-handoff': band.id,
    'data-covers': `${band.coveredRunOrdinals.from}-${band.coveredRunOrdinals.to}`,
    'data-into': band.toProviderThreadId,
    'data-status': band.status,
    'data-strategy': band.strategy,
    'data-clipped': band.clipped ? 'left' : null,
    class: `handoff status-${band.status.toLowerCase()}${band.atTarget ? ' at-target' : ''}`,
    tabindex: 0,
    role: 'button',
    'aria-label': `handoff ${band.name}, ${band.label}, ${band.status.toLowerCase()}`,
  });
  node.append(svg('rect', { x: x1, y: yTop, width: x2 - x1, height: BAND_H, rx: 5, fill: standing ? colour.base : '#e5e7eb', 'fill-opacity': standing ? 0.2 : 0.7, stroke: standing ? colour.base : '#9aa3af', class: 'band' }));
  const textX = band.clipped ? x1 + 14 : x1 + 7;
  if (band.clipped) node.append(svg('path', { d: `M${x1 + 9},${yTop + 6} L${x1 + 4},${yTop + BAND_H / 2} L${x1 + 9},${yTop + BAND_H - 6}`, class: 'band-clip', stroke: standing ? colour.dark : '#4b5563' }));
  const covers = band.coveredRunOrdinals.to > 0 ? ` ${range(band.coveredRunOrdinals.from, band.coveredRunOrdinals.to)}` : '';
  const shown = band.atTarget ? '' : covers;
  const suffix = band.status === 'READY' ? '' : ` · ${band.status.toLowerCase()}`;
  const short = band.label.split(' ')[0].replace('-back', '').replace('subagent', band.label.endsWith('task') ? 'task' : 'result');
  const candidates = [`${band.name} · ${band.label}${shown}${suffix}`, `${band.name} · ${band.label}${shown}`, `${band.name} · ${band.label}`, `${band.name} · ${short}${shown}`, `${band.name} · ${short}`, band.name];
  const text = candidates.find((candidate) => approxWidth(candidate, 11.5) <= x2 - textX - 5) ?? band.name;
  node.append(svgText(textX, yTop + BAND_H / 2 + 4, text, { class: 'band-label', fill: standing ? colour.dark : '#4b5563' }));
  node.append(tooltip(`${band.name}: ${band.label}${covers ? `, runs${covers}` : ''} into ${lane.provider} #${lane.seq} · ${band.status}${band.clipped ? `\nstarts before run #${count(model.from)}: load earlier runs to see all of it` : ''}`));
  wireSelect(node, () => showHandoff(band));
  group.append(node);

  // An arrow from the band to the run it was the context of.
  const target = band.target;
  const targetLane = target ? model.laneById.get(target.providerThread.id) : null;
  if (!target || !targetLane) return;
  const tx = colCx(target.ordinal);
  const ty = targetLane.runTop - 1;
  const by = yTop + BAND_H;
  let d;
  if (tx >= x1 && tx <= x2 && targetLane === lane) d = `M${tx},${by} L${tx},${ty}`;
  else if (tx > x2) d = `M${x2},${yTop + BAND_H / 2} C${tx},${yTop + BAND_H / 2} ${tx},${yTop + BAND_H / 2} ${tx},${ty}`;
  else d = `M${x1},${yTop + BAND_H / 2} C${tx},${yTop + BAND_H / 2} ${tx},${yTop + BAND_H / 2} ${tx},${ty}`;
  arrows.append(svg('path', { d, class: standing ? 'handoff-arrow' : 'handoff-arrow muted', 'marker-end': standing ? 'url(#arrow)' : 'url(#arrow-muted)', 'data-arrow-of': band.id }));
}

function drawRun(group, run, lane, colX, colW) {
  const colour = colourOf(run.provider);
  const x = colX(run.ordinal) + 5;
  const w = colW - 10;
  const yTop = lane.runTop;
  const rolledBack = run.status === 'ROLLED_BACK';
  const node = svg('g', {
    'data-run': run.ordinal,
    'data-run-id': run.id,
    'data-lane-of': lane.id,
    'data-status': run.status,
    class: `run status-${run.status.toLowerCase()}`,
    tabindex: 0,
    role: 'button',
    'aria-label': `run ${run.ordinal}, ${run.provider}, ${run.status.toLowerCase()}`,
  });
  node.append(svg('rect', { x, y: yTop, width: w, height: RUN_H, rx: 7, fill: rolledBack ? '#d1d5db' : colour.base, class: 'run-box' }));
  node.append(svgText(x + w / 2, yTop + (w >= 58 ? 19 : 27), `#${run.ordinal}`, { class: 'run-label', 'text-anchor': 'middle', fill: rolledBack ? '#6b7280' : '#ffffff' }));
  if (w >= 58) {
    const sub = rolledBack ? 'rolled back' : run.status === 'COMPLETED' ? ACTION_LABELS[run.plan.providerThreadAction] ?? '' : run.status.toLowerCase();
    node.append(svgText(x + w / 2, yTop + 34, sub, { class: 'run-sub', 'text-anchor': 'middle', fill: rolledBack ? '#6b7280' : '#ffffff' }));
  }
  if (rolledBack) node.append(svg('line', { x1: x + 4, y1: yTop + RUN_H / 2, x2: x + w - 4, y2: yTop + RUN_H / 2, class: 'strike' }));
  node.append(tooltip(`#${run.ordinal} ${run.provider} · ${run.status}\n${run.plan.decision} (${run.plan.providerThreadAction})\nclick for its plan's reasons and messages`));
  wireSelect(node, () => showRun(run));
  group.append(node);
}

// ---------------------------------------------------------------------------------------------
// Selection and the side panel

function wireSelect(node, show) {
  const activate = (event) => {
    event.preventDefault();
    event.stopPropagation();
    select(node, show);
  };
  node.addEventListener('click', activate);
  node.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') activate(event);
  });
}

function select(node, show) {
  document.querySelectorAll('.selected').forEach((element) => element.classList.remove('selected'));
  node.classList.add('selected');
  selected = { key: selectionKey(node), show };
  show();
}

function selectionKey(node) {
  for (const name of ['data-handoff', 'data-run-id', 'data-lane-label']) {
    if (node.hasAttribute(name)) return `[${name}="${CSS.escape(node.getAttribute(name))}"]`;
  }
  return null;
}

function reselect() {
  const node = selected.key ? document.querySelector(selected.key) : null;
  if (node) node.classList.add('selected');
}

let panelShown = 0;

/** Fills the side panel: data-state is "loading" while what was clicked is still being read. Returns the panel's number. */
function panel(kind, title, children, state = 'ready') {
  const details = document.getElementById('details');
  details.dataset.kind = kind;
  details.dataset.state = state;
  details.replaceChildren(html('h2', { text: title }), ...children.filter(Boolean));
  return ++panelShown;
}

/** Shows what the drawing knows at once, then the full panel once `load` has read the rest, unless another panel replaced it meanwhile. */
async function panelWithDetails(kind, title, known, load, full) {
  const shown = panel(kind, title, [...known, html('p', { class: 'hint', text: 'Reading…' })], 'loading');
  try {
    const details = await load();
    if (!details) throw new ViewerError('It is no longer there.');
    if (shown === panelShown) panel(kind, title, full(details));
  } catch (error) {
    if (shown === panelShown) panel(kind, title, [...known, html('p', { class: 'panel-error', text: `Cannot read the details: ${error.message}` })], 'error');
  }
}

function field(name, value) {
  if (value === null || value === undefined || value === '') return null;
  return html('div', { class: 'field' }, [html('dt', { text: name }), html('dd', {}, [value instanceof Node ? value : String(value)])]);
}

function fields(entries) {
  return html('dl', { class: 'fields' }, entries.filter(Boolean));
}

function laneName(id) {
  const lane = model.laneById.get(id);
  return lane ? `${lane.provider} #${lane.seq} (${shortId(id)})` : id;
}

function handoffButton(id) {
  const handoff = model.handoffById.get(id);
  if (!handoff) return html('span', { class: 'mono', title: `${id} (not made for a run shown)`, text: shortId(id) });
  const button = html('button', { type: 'button', class: 'link-button', text: `${handoff.name} · ${handoff.label}` });
  button.addEventListener('click', () => {
    const node = document.querySelector(`[data-handoff="${CSS.escape(id)}"]`);
    if (node) select(node, () => showHandoff(handoff));
    else showHandoff(handoff);
  });
  return button;
}

function handoffButtons(ids, most) {
  const shown = ids.slice(0, most).flatMap((id, index) => (index ? [', ', handoffButton(id)] : [handoffButton(id)]));
  if (ids.length > most) shown.push(` and ${count(ids.length - most)} more`);
  return html('span', {}, shown);
}

function decisionLine(plan) {
  return html('div', { class: 'decision' }, [
    html('span', { class: 'decision-name', text: plan.decision }),
    html('span', { class: 'decision-action', text: plan.providerThreadAction }),
    plan.handoffStrategy ? html('span', { class: 'decision-strategy', text: `${STRATEGY_LABELS[plan.handoffStrategy] ?? plan.handoffStrategy}${plan.coveredRunOrdinals ? ` ${range(plan.coveredRunOrdinals.from, plan.coveredRunOrdinals.to)}` : ''}` }) : null,
  ]);
}

/** A run: its decision at once, its plan's reasons, messages and facts once read. */
function showRun(run) {
  const known = [decisionLine(run.plan), fields([field('status', run.status), field('provider thread', laneName(run.providerThread.id))])];
  panelWithDetails('run', `Run #${run.ordinal} · ${run.provider}`, known, () => detailsOf(runDetails, RUN_DETAILS_QUERY, 'run', run.id), (details) => runPanel(run, details));
}

/** A text read cut to `shown` characters: an ellipsis when it was cut. */
function cut(text, length, shown) {
  return length > shown ? `${text}…` : text;
}

/** The note under a text that was cut: how much of it is shown. */
function cutNote(length, shown) {
  return length > shown ? html('p', { class: 'hint', text: `The first ${count(shown)} of ${count(length)} characters.` }) : null;
}

function runPanel(run, details) {
  const plan = { ...run.plan, ...details.plan };
  const facts = details.facts.length
    ? html('ul', { class: 'facts' }, details.facts.map((fact) => html('li', {}, [html('span', { class: 'fact-kind', text: fact.kind.toLowerCase().replace(/_/g, ' ') }), ` ${cut(fact.text, fact.textLength, SHOWN.factText)}${fact.status ? ` (${fact.status})` : ''}`])))
    : null;
  return [
    decisionLine(plan),
    plan.stalenessSignals.length ? html('div', { class: 'signals' }, plan.stalenessSignals.map((signal) => html('span', { class: 'signal', text: signal }))) : null,
    html('h3', { text: 'Why' }),
    html('ul', { class: 'reasons' }, plan.reasons.map((reason) => html('li', { text: reason }))),
    fields([
      field('status', run.status),
      field('provider thread', laneName(run.providerThread.id)),
      field('context', details.contextHandoff ? handoffButton(details.contextHandoff.id) : null),
      field('model', details.model),
      field('runtime mode', details.runtimeMode),
      field('started', when(details.createdAt)),
      field('completed', when(details.completedAt)),
      field('error', details.error),
    ]),
    html('h3', { text: 'User message' }),
    html('p', { class: 'message', text: cut(details.userMessage, details.userMessageLength, SHOWN.message) }),
    cutNote(details.userMessageLength, SHOWN.message),
    details.assistantMessage ? html('h3', { text: 'Assistant message' }) : null,
    details.assistantMessage ? html('p', { class: 'message', text: cut(details.assistantMessage, details.assistantMessageLength, SHOWN.message) }) : null,
    details.assistantMessage ? cutNote(details.assistantMessageLength, SHOWN.message) : null,
    facts ? html('h3', { text: 'Facts' }) : null,
    facts,
    details.factCount > details.facts.length ? html('p', { class: 'hint', text: `The first ${count(details.facts.length)} of ${count(details.factCount)} facts.` }) : null,
  ];
}

/** A handoff: what its band shows at once, its provenance and summary text once read. */
function showHandoff(handoff) {
  const known = [handoffStatusLine(handoff), fields(handoffFields(handoff))];
  panelWithDetails('handoff', `Handoff ${handoff.name} · ${handoff.label}`, known, () => detailsOf(handoffDetails, HANDOFF_DETAILS_QUERY, 'contextHandoff', handoff.id), (details) => handoffPanel(handoff, details));
}

function handoffStatusLine(handoff) {
  return html('div', { class: 'decision' }, [
    html('span', { class: `handoff-status status-${handoff.status.toLowerCase()}`, text: handoff.status }),
    html('span', { class: 'decision-strategy', text: handoff.strategy }),
  ]);
}

function handoffFields(handoff) {
  return [
    field('covers runs', handoff.coveredRunOrdinals.to > 0 ? range(handoff.coveredRunOrdinals.from, handoff.coveredRunOrdinals.to) : 'none'),
    field('into', laneName(handoff.toProviderThreadId)),
    field('drawn from', handoff.fromProviderThreadIds.map(laneName).join(', ') || null),
    field('for run', handoff.target ? `#${handoff.target.ordinal}` : handoff.targetRunId),
  ];
}

function handoffPanel(handoff, details) {
  return [
    handoffStatusLine(handoff),
    fields([
      ...handoffFields(handoff),
      field('delivery', details.delivery),
      field('written by', `${details.source}${details.createdByProvider ? ` (${details.createdByProvider})` : ''}`),
      field('length', `${count(details.length)} characters${details.budgetChars ? ` of ${count(details.budgetChars)}` : ''}`),
      field('transfers', handoff.transfers.map((transfer) => TRANSFER_LABELS[transfer.kind] ?? transfer.kind).join(', ') || null),
      field('supersedes', details.supersedes ? handoffButton(details.supersedes.id) : null),
      field('superseded by', details.supersededBy ? handoffButton(details.supersededBy.id) : null),
      field('failure', details.failureReason),
      field('omissions', details.omissions.length ? details.omissions.join('; ') : null),
      field('id', handoff.id),
    ]),
    html('h3', { text: 'Summary text' }),
    html('pre', { class: 'summary', 'data-summary-of': handoff.id, text: cut(details.summaryText, details.length, SHOWN.summary) }),
    cutNote(details.length, SHOWN.summary),
  ];
}

function showLane(lane) {
  const coverage = lane.coverage;
  panel('lane', `${lane.provider} #${lane.seq}`, [
    html('div', { class: 'decision' }, [html('span', { class: `lane-status status-${lane.status.toLowerCase()}`, text: lane.status })]),
    fields([
      field('provider thread', lane.id),
      field('native id', lane.nativeThreadRef),
      field('model', lane.model),
      field('runtime mode', lane.runtimeMode),
      field('served runs', coverage ? compactRanges(coverage.nativeRanges) || 'none' : null),
      field('handoffs received', coverage?.handoffIds.length ? handoffButtons(coverage.handoffIds, 12) : coverage ? 'none' : null),
      field('knows through', coverage ? `#${coverage.coveredThroughOrdinal}` : null),
      field('misses', coverage ? compactRanges(coverage.missingRanges) || 'nothing' : null),
      field('forked from', lane.forkedFrom ? html('a', { href: threadHref(lane.forkedFrom.threadId), text: `${lane.forkedFrom.provider} ${shortId(lane.forkedFrom.id)} of ${lane.forkedFrom.threadId}` }) : null),
      field('created', when(lane.createdAt)),
    ]),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Header, legend and the lineage list

/** Which runs are drawn: "runs 9,801–10,000 of 10,000" (the thread's own runs read, of its newest ordinal). */
function windowText() {
  const forkOrdinal = forkOrdinalOf(view.thread);
  const inherited = forkOrdinal ? ` (${range(1, forkOrdinal)} inherited)` : '';
  if (!view.runs.length) return `no runs of its own yet${inherited}`;
  return `runs ${range(view.runs[0].ordinal, view.runs.at(-1).ordinal)} of ${count(newestOrdinal())}${inherited}`;
}

function renderHeader(model) {
  const { thread } = model;
  document.title = `${thread.title || thread.id} · Threadline lineage`;
  document.getElementById('title').textContent = thread.title || thread.id;
  const meta = document.getElementById('meta');
  const parts = [
    html('span', { class: 'mono', text: thread.id }),
    html('span', { text: `head #${count(thread.headOrdinal)}` }),
    html('span', { id: 'window-range', text: windowText() }),
    html('span', { text: `${count(thread.providerThreads.length)} provider threads` }),
    html('span', { text: `${count(model.handoffs.length)} handoffs${view.hasEarlier ? ' in view' : ''}` }),
  ];
  const lineage = thread.lineage;
  if (lineage.parent) {
    const point = lineage.sourcePoint;
    const where = point?.checkpointId ? `checkpoint of run #${point.runOrdinal}` : point?.runOrdinal ? `run #${point.runOrdinal}` : 'its start';
    parts.push(html('span', {}, [`${lineage.relationshipToParent === 'SUBAGENT' ? 'subagent of' : 'fork of'} `, threadLink(lineage.parent), ` at ${where}`]));
  }
  meta.replaceChildren(...parts);
}

/** While earlier runs remain unread: how many, and the control that reads the window before the first drawn. */
function renderWindowBar() {
  const bar = document.getElementById('window');
  bar.hidden = !view.hasEarlier;
  if (!view.hasEarlier) {
    bar.replaceChildren();
    return;
  }
  const earlier = view.runs[0].ordinal - forkOrdinalOf(view.thread) - 1;
  const button = html('button', { type: 'button', id: 'load-earlier', class: 'load-earlier', text: LOAD_EARLIER });
  button.addEventListener('click', () => loadEarlier(button));
  bar.replaceChildren(button, html('span', { text: `Showing ${windowText()}; ${count(earlier)} earlier ${earlier === 1 ? 'run is' : 'runs are'} not read yet.` }));
}

const LOAD_EARLIER = '◂ Load earlier runs';

async function loadEarlier(button) {
  button.disabled = true;
  button.textContent = 'Loading earlier runs…';
  const previousFrom = model.from;
  try {
    await loadEarlierRuns();
    render({ reveal: previousFrom });
  } catch (error) {
    setStatus(errorText(error), 'error');
    button.disabled = false;
    button.textContent = LOAD_EARLIER;
  }
}

function legendSwatch(drawingFn, label) {
  const icon = svg('svg', { width: 30, height: 18, viewBox: '0 0 30 18', 'aria-hidden': 'true' });
  drawingFn(icon);
  return html('span', { class: 'legend-item' }, [icon, label]);
}

function renderLegend(model) {
  const providers = [...new Set(model.lanes.map((lane) => lane.provider))];
  const items = providers.map((provider) => legendSwatch((icon) => icon.append(svg('rect', { x: 2, y: 2, width: 26, height: 14, rx: 4, fill: colourOf(provider).base })), provider));
  items.push(
    legendSwatch((icon) => icon.append(svg('rect', { x: 2, y: 2, width: 26, height: 14, rx: 4, fill: '#d1d5db' }), svg('line', { x1: 5, y1: 9, x2: 25, y2: 9, class: 'strike' })), 'rolled back'),
    legendSwatch((icon) => icon.append(svg('rect', { x: 2, y: 3, width: 26, height: 12, rx: 3, fill: '#64748b', 'fill-opacity': 0.2, stroke: '#64748b', 'stroke-width': 1.5 })), 'handoff over the runs it covers, coloured by its source'),
    legendSwatch((icon) => icon.append(svg('rect', { x: 2, y: 3, width: 26, height: 12, rx: 3, fill: '#e5e7eb', stroke: '#9aa3af', 'stroke-width': 1.5, 'stroke-dasharray': '4 3' })), 'superseded or failed'),
    legendSwatch((icon) => icon.append(svg('rect', { x: 1, y: 1, width: 28, height: 16, rx: 3, fill: 'url(#legend-hatch)' }), svg('defs', {}, [svg('pattern', { id: 'legend-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, [svg('rect', { width: 6, height: 6, fill: '#f3f4f6' }), svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#c9ced6', 'stroke-width': 2.5 })])])), 'stale lane'),
    legendSwatch((icon) => icon.append(svg('rect', { x: 2, y: 2, width: 26, height: 14, rx: 4, fill: '#fff', stroke: '#dc2626', 'stroke-width': 2, 'stroke-dasharray': '5 3' })), 'divergent lane'),
    legendSwatch((icon) => icon.append(svg('path', { d: 'M4,2 L4,10 Q4,15 10,15 L24,15', fill: 'none', stroke: '#6d28d9', 'stroke-width': 2, 'stroke-dasharray': '5 3' })), 'fork, subagent, merge-back'),
  );
  document.getElementById('legend').replaceChildren(...items);
}

function renderLineage(model) {
  const { thread } = model;
  const section = document.getElementById('lineage');
  const children = [html('h2', { text: 'Lineage' })];
  const chain = [...thread.ancestors].reverse();
  if (chain.length) {
    const path = html('p', { class: 'ancestry' }, []);
    for (const ancestor of chain) path.append(threadLink(ancestor), ' › ');
    path.append(html('strong', { text: thread.title || thread.id }));
    children.push(path);
  } else {
    children.push(html('p', { class: 'ancestry', text: 'A root thread.' }));
  }
  const list = (title, entries, render) => {
    if (!entries.length) return;
    children.push(html('h3', { text: title }), html('ul', { class: 'branch-list' }, entries.map((entry) => html('li', {}, render(entry)))));
  };
  list('Forks', thread.forks, (fork) => [threadLink(fork), ` from run #${fork.lineage.sourcePoint?.runOrdinal ?? '?'}${fork.lineage.sourcePoint?.checkpointId ? ' (checkpoint)' : ''}`]);
  list('Subagents', thread.subagents, (child) => [threadLink(child), ` spawned by run #${child.lineage.sourcePoint?.runOrdinal ?? '?'}`]);
  if (model.transfers.length) {
    const rows = model.transfers.map((transfer) => html('tr', { 'data-transfer': transfer.id, 'data-kind': transfer.kind }, [
      html('td', { text: TRANSFER_LABELS[transfer.kind] ?? transfer.kind }),
      html('td', {}, transfer.sourceThreadId === thread.id && transfer.targetThreadId === thread.id
        ? ['within this thread']
        : [transfer.sourceThreadId === thread.id ? 'this thread' : threadLink(null, transfer.sourceThreadId), ' → ', transfer.targetThreadId === thread.id ? 'this thread' : threadLink(null, transfer.targetThreadId)]),
      html('td', { text: transfer.sourcePoint.runOrdinal !== null ? `#${transfer.sourcePoint.runOrdinal}${transfer.basePoint?.runOrdinal !== undefined && transfer.basePoint ? ` since #${transfer.basePoint.runOrdinal}` : ''}` : '' }),
      html('td', { text: transferStatus(transfer) }),
      html('td', {}, [transfer.handoff ? handoffButton(transfer.handoff.id) : '']),
    ]));
    children.push(html('h3', { text: view.hasEarlier ? `Context transfers of runs ${range(model.from, model.to)}` : 'Context transfers' }), html('table', { class: 'transfers' }, [
      html('thead', {}, [html('tr', {}, ['kind', 'from → to', 'point', 'status', 'handoff'].map((name) => html('th', { text: name })))]),
      html('tbody', {}, rows),
    ]));
  }
  section.replaceChildren(...children);
}

// ---------------------------------------------------------------------------------------------

function setStatus(text, kind = 'info') {
  const status = document.getElementById('status');
  status.textContent = text;
  status.dataset.kind = kind;
  status.hidden = !text;
}

function errorText(error) {
  return error instanceof ViewerError ? error.message : `Unexpected error: ${error.message}`;
}

function render(drawOptions) {
  model = buildModel();
  setStatus('');
  renderHeader(model);
  renderWindowBar();
  renderLegend(model);
  draw(drawOptions);
  renderLineage(model);
}

async function start() {
  if (!threadId) {
    setStatus('No thread id in the address: open /lineage/<threadId>.', 'error');
    document.getElementById('drawing').dataset.state = 'error';
    return;
  }
  try {
    if (!(await loadThread(threadId))) {
      document.getElementById('title').textContent = 'Thread not found';
      setStatus(`No thread "${threadId}" for this tenant.`, 'error');
      document.getElementById('drawing').dataset.state = 'not-found';
      return;
    }
    render();
    let timer = null;
    window.addEventListener('resize', () => {
      clearTimeout(timer);
      timer = setTimeout(() => draw(), 150);
    });
  } catch (error) {
    document.getElementById('title').textContent = 'Cannot draw this thread';
    setStatus(errorText(error), 'error');
    document.getElementById('drawing').dataset.state = 'error';
  }
}

start();
