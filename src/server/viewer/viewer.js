// Threadline lineage viewer. Reads one thread through the public GraphQL API (POST /graphql, with the
// page's ?token= as a bearer token) and draws it as people think of it: runs left to right by
// ordinal, one lane per provider thread, handoffs as bands over the runs they cover in the lane they
// were delivered to, forks, subagents and merge-backs as branches below. Plain JS and SVG, no build.

const SVG_NS = 'http://www.w3.org/2000/svg';
const params = new URLSearchParams(location.search);
const token = params.get('token') || null;
const threadId = decodeURIComponent(location.pathname.replace(/^\/lineage\//, '').replace(/\/+$/, ''));
const GRAPHQL_URL = new URL('/graphql', location.href).href;

const RUN_FIELDS = `id ordinal provider model runtimeMode status userMessage assistantMessage error createdAt completedAt
  providerThread { id } contextHandoff { id }
  facts { kind text status }
  plan { decision providerThreadAction providerThread { id } handoffStrategy coveredRunOrdinals { from to } stalenessSignals reasons }`;
const THREAD_QUERY = `query ThreadLineage($id: ID!) {
  thread(id: $id) {
    id title createdAt headOrdinal
    lineage { parent { id title } relationshipToParent root { id title } sourcePoint { threadId runId runOrdinal checkpointId providerThreadId } }
    ancestors { id title }
    forks(first: 100) { id title createdAt lineage { sourcePoint { runOrdinal checkpointId providerThreadId } } }
    subagents(first: 100) { id title createdAt lineage { sourcePoint { runOrdinal runId } } }
    providerThreads { id provider status nativeThreadRef model runtimeMode firstRunOrdinal lastRunOrdinal createdAt
      forkedFrom { id threadId provider }
      coverage { nativeRunOrdinals handoffIds coveredThroughOrdinal missingRunOrdinals } }
    runs(first: 500) { pageInfo { hasNextPage endCursor } edges { node { ${RUN_FIELDS} } } }
    handoffs { id transferId targetRunId fromProviderThreadIds toProviderThreadId coveredRunOrdinals { from to } strategy summaryText
      status createdByProvider delivery source length budgetChars omissions failureReason createdAt supersedes { id } supersededBy { id } }
    transfers { id kind sourceThreadId targetThreadId sourcePoint { threadId runId runOrdinal checkpointId providerThreadId } basePoint { runOrdinal }
      sourceProvider targetProvider status resolution createdBy createdAt consumedAt handoff { id targetRunId } }
  }
}`;
const RUNS_PAGE_QUERY = `query ThreadRuns($id: ID!, $after: String) {
  thread(id: $id) { runs(first: 500, after: $after) { pageInfo { hasNextPage endCursor } edges { node { ${RUN_FIELDS} } } } }
}`;

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

async function loadThread(id) {
  const data = await graphql(THREAD_QUERY, { id });
  const thread = data.thread;
  if (!thread) return null;
  const runs = thread.runs.edges.map((edge) => edge.node);
  let page = thread.runs.pageInfo;
  while (page.hasNextPage) {
    const next = (await graphql(RUNS_PAGE_QUERY, { id, after: page.endCursor })).thread.runs;
    runs.push(...next.edges.map((edge) => edge.node));
    page = next.pageInfo;
  }
  return { ...thread, runs };
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

function range(from, to) {
  return from === to ? `${from}` : `${from}–${to}`;
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

function buildModel(thread) {
  const lanes = thread.providerThreads.map((pt, index) => ({ ...pt, seq: index + 1, runs: [], bands: [] }));
  const laneById = new Map(lanes.map((lane) => [lane.id, lane]));
  const runById = new Map(thread.runs.map((run) => [run.id, run]));
  for (const run of thread.runs) {
    let lane = laneById.get(run.providerThread.id);
    if (!lane) {
      lane = { id: run.providerThread.id, provider: run.provider, status: 'IDLE', seq: lanes.length + 1, runs: [], bands: [], coverage: null, forkedFrom: null };
      lanes.push(lane);
      laneById.set(lane.id, lane);
    }
    lane.runs.push(run);
  }
  const transferByHandoff = new Map();
  for (const transfer of thread.transfers) if (transfer.handoff) {
    const list = transferByHandoff.get(transfer.handoff.id) ?? [];
    list.push(transfer);
    transferByHandoff.set(transfer.handoff.id, list);
  }
  const handoffs = thread.handoffs.map((handoff, index) => {
    const target = runById.get(handoff.targetRunId) ?? null;
    const transfers = transferByHandoff.get(handoff.id) ?? [];
    const kinds = transfers.map((transfer) => transfer.kind);
    // A merge-back covers the fork's ordinals, a task or a subagent result covers none: they are drawn at the run that took them in.
    const atTarget = handoff.strategy === 'FORK_DELTA_SUMMARY' || handoff.coveredRunOrdinals.to < 1;
    const span = atTarget
      ? target ? { from: target.ordinal, to: target.ordinal } : null
      : { from: Math.max(1, handoff.coveredRunOrdinals.from), to: handoff.coveredRunOrdinals.to };
    let label = STRATEGY_LABELS[handoff.strategy] ?? handoff.strategy.toLowerCase();
    if (kinds.includes('SUBAGENT_RESULT')) label = 'subagent result';
    else if (kinds.includes('SUBAGENT_SPAWN')) label = 'subagent task';
    else if (kinds.includes('MERGE_BACK') && handoff.strategy !== 'FORK_DELTA_SUMMARY') label += ' + merge-back';
    const sourceProviders = handoff.fromProviderThreadIds.map((id) => laneById.get(id)?.provider).filter(Boolean);
    return { ...handoff, name: `H${index + 1}`, target, transfers, span, atTarget, label, sourceProvider: sourceProviders[0] ?? null };
  });
  for (const handoff of handoffs) laneById.get(handoff.toProviderThreadId)?.bands.push(handoff);

  const isChild = Boolean(thread.lineage.parent);
  const forkOrdinal = thread.lineage.relationshipToParent === 'FORK' ? thread.lineage.sourcePoint?.runOrdinal ?? 0 : 0;
  let columns = Math.max(1, thread.headOrdinal, forkOrdinal, ...thread.runs.map((run) => run.ordinal));
  for (const handoff of handoffs) if (handoff.span) columns = Math.max(columns, handoff.span.to);

  const branches = [];
  const here = thread.id;
  for (const fork of thread.forks) {
    const transfer = thread.transfers.find((entry) => entry.kind === 'FORK' && entry.targetThreadId === fork.id);
    branches.push({ kind: 'fork', direction: 'out', ordinal: fork.lineage.sourcePoint?.runOrdinal ?? 0, threadId: fork.id, title: fork.title, status: transfer ? `${transfer.status.toLowerCase()}${transfer.resolution ? `, ${transfer.resolution.toLowerCase().replace(/_/g, ' ')}` : ''}` : '' });
  }
  for (const child of thread.subagents) {
    branches.push({ kind: 'subagent', direction: 'out', ordinal: child.lineage.sourcePoint?.runOrdinal ?? 0, threadId: child.id, title: child.title, status: '' });
  }
  for (const transfer of thread.transfers) {
    const target = transfer.handoff ? runById.get(transfer.handoff.targetRunId) : null;
    if (transfer.kind === 'MERGE_BACK' && transfer.targetThreadId === here) {
      branches.push({ kind: 'merge-back', direction: 'in', ordinal: target?.ordinal ?? thread.headOrdinal + 1, threadId: transfer.sourceThreadId, title: null, status: transfer.status.toLowerCase(), handoffId: transfer.handoff?.id ?? null });
    } else if (transfer.kind === 'MERGE_BACK' && transfer.sourceThreadId === here) {
      branches.push({ kind: 'merge-back', direction: 'out', ordinal: transfer.sourcePoint.runOrdinal ?? thread.headOrdinal, threadId: transfer.targetThreadId, title: null, status: transfer.status.toLowerCase() });
    } else if (transfer.kind === 'SUBAGENT_RESULT' && transfer.targetThreadId === here) {
      branches.push({ kind: 'result', direction: 'in', ordinal: target?.ordinal ?? 0, threadId: transfer.sourceThreadId, title: null, status: transfer.status.toLowerCase(), handoffId: transfer.handoff?.id ?? null });
    } else if (transfer.kind === 'SUBAGENT_RESULT' && transfer.sourceThreadId === here) {
      branches.push({ kind: 'result', direction: 'out', ordinal: transfer.sourcePoint.runOrdinal ?? thread.headOrdinal, threadId: transfer.targetThreadId, title: null, status: transfer.status.toLowerCase() });
    }
  }
  for (const branch of branches) columns = Math.max(columns, branch.ordinal);
  branches.sort((a, b) => a.ordinal - b.ordinal);
  return { thread, lanes, laneById, runById, handoffs, columns, branches, isChild, forkOrdinal };
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

function columnWidth(columns) {
  const available = Math.max(480, (document.getElementById('drawing').clientWidth || 900) - LABEL_W - 36);
  return Math.max(46, Math.min(96, Math.floor(available / columns)));
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

function draw() {
  const { thread, lanes, columns, branches, forkOrdinal } = model;
  const colW = columnWidth(columns);
  // Two SVGs side by side: the lane labels stay put while the runs scroll horizontally.
  const colX = (ordinal) => GRID_X0 + (ordinal - 1) * colW;
  const colCx = (ordinal) => colX(ordinal) + colW / 2;
  const gridRight = colX(columns + 1);

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
  for (const branch of branches) branchWidth = Math.max(branchWidth, colCx(Math.max(1, branch.ordinal)) + 30 + approxWidth(branchLabel(branch), 12.5));
  const height = lanesBottom + (branches.length ? 18 + branches.length * BRANCH_ROW_H : 12);
  const width = Math.max(gridRight + 8, branchWidth + 12);

  const labels = svg('svg', { width: LABEL_W, height, viewBox: `0 0 ${LABEL_W} ${height}`, class: 'lane-labels', 'aria-label': 'Provider threads' });
  labels.append(svgText(12, 24, 'run', { class: 'axis-title' }));
  const root = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Lineage of thread ${thread.id}`, class: 'lineage-svg', 'data-columns': columns });
  root.append(defs());

  // Column header, grid, inherited region, head.
  const grid = svg('g', { class: 'grid' });
  if (forkOrdinal > 0) {
    const x1 = colX(1);
    const x2 = colX(forkOrdinal + 1);
    grid.append(svg('rect', { x: x1, y: HEADER_H - 6, width: x2 - x1, height: lanesBottom - HEADER_H + 12, fill: 'url(#inherited)', rx: 6, class: 'inherited' }, [tooltip(`Runs 1–${forkOrdinal} are inherited from ${thread.lineage.parent.id}`)]));
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
  for (let ordinal = 1; ordinal <= columns; ordinal++) {
    const isHead = ordinal === thread.headOrdinal;
    grid.append(svg('line', { x1: colX(ordinal), y1: HEADER_H - 4, x2: colX(ordinal), y2: lanesBottom, class: 'gridline' }));
    if (isHead) grid.append(svg('rect', { x: colCx(ordinal) - 21, y: 7, width: 42, height: 24, rx: 12, class: 'head-pill' }, [tooltip('head: the newest live run')]));
    grid.append(svgText(colCx(ordinal), 24, String(ordinal), { class: isHead ? 'col-label head' : 'col-label', 'text-anchor': 'middle' }));
  }
  grid.append(svg('line', { x1: gridRight, y1: HEADER_H - 4, x2: gridRight, y2: lanesBottom, class: 'gridline' }));
  root.append(grid);

  // Lanes, with their runs and the handoffs delivered into them.
  const arrows = svg('g', { class: 'arrows' });
  for (const lane of lanes) {
    const colour = colourOf(lane.provider);
    const alert = lane.status === 'DIVERGENT' || lane.status === 'RESUME_FAILED';
    const group = svg('g', { 'data-lane': lane.id, 'data-provider': lane.provider, 'data-lane-status': lane.status, class: `lane status-${lane.status.toLowerCase()}` });
    const laneX = forkOrdinal > 0 ? colX(forkOrdinal + 1) - 3 : 0;
    group.append(svg('rect', { x: laneX, y: lane.top, width: gridRight - laneX, height: lane.height, rx: 8, fill: lane.status === 'STALE' ? 'url(#hatch)' : colour.light, class: 'lane-bg' }));
    if (alert) group.append(svg('rect', { x: laneX + 1, y: lane.top + 1, width: gridRight - laneX - 2, height: lane.height - 2, rx: 8, fill: 'none', class: 'lane-alert' }));
    for (const band of lane.bands) if (band.span) drawBand(group, arrows, band, lane, colX, colCx, colW);
    for (const run of lane.runs) drawRun(group, run, lane, colX, colW);
    root.append(group);
    labels.append(laneLabel(lane, colour, alert));
  }
  root.append(arrows);

  // Branches: forks and subagents leaving, merge-backs and results coming in.
  branches.forEach((branch, index) => {
    const rowY = lanesBottom + 18 + index * BRANCH_ROW_H + BRANCH_ROW_H / 2;
    const x = colCx(Math.max(1, branch.ordinal));
    const group = svg('g', { class: `branch branch-${branch.kind}`, 'data-branch': branch.kind, 'data-branch-thread': branch.threadId, 'data-branch-direction': branch.direction });
    const blue = branch.kind === 'subagent' || branch.kind === 'result';
    const line = branch.direction === 'in'
      ? svg('path', { d: `M${x + 12},${rowY} Q${x},${rowY} ${x},${rowY - 10} L${x},${lanesBottom + 4}`, class: 'branch-line', 'marker-end': blue ? 'url(#arrow-blue)' : 'url(#arrow-branch)' })
      : svg('path', { d: `M${x},${lanesBottom + 2} L${x},${rowY - 10} Q${x},${rowY} ${x + 12},${rowY}`, class: 'branch-line' });
    group.append(line);
    group.append(svg('circle', { cx: x + 16, cy: rowY, r: 4, class: 'branch-dot' }));
    const link = svg('a', { href: threadHref(branch.threadId) }, [svgText(x + 26, rowY + 4.5, branchLabel(branch), { class: 'branch-label' })]);
    group.append(link, tooltip(`${branch.kind} ${branch.direction === 'in' ? 'from' : 'to'} ${branch.threadId}${branch.status ? ` (${branch.status})` : ''}`));
    root.append(group);
  });

  const drawing = document.getElementById('drawing');
  const previous = drawing.querySelector('.drawing-scroll');
  const scrollLeft = previous ? previous.scrollLeft : null;
  const scroller = html('div', { class: 'drawing-scroll' }, [root]);
  drawing.replaceChildren(html('div', { class: 'drawing-labels' }, [labels]), scroller);
  // Open on the newest runs: a long thread scrolls to its head.
  scroller.scrollLeft = scrollLeft ?? scroller.scrollWidth;
  drawing.dataset.state = 'ready';
  if (selected) reselect();
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
    const missing = lane.coverage.missingRunOrdinals;
    const knows = lane.coverage.coveredThroughOrdinal ? `knows to #${lane.coverage.coveredThroughOrdinal}` : 'knows nothing yet';
    let knowsText = missing.length ? `${knows} · misses ${compactOrdinals(missing)}` : knows;
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

function compactOrdinals(ordinals) {
  const parts = [];
  let start = null;
  let previous = null;
  for (const ordinal of ordinals) {
    if (previous !== null && ordinal === previous + 1) {
      previous = ordinal;
      continue;
    }
    if (start !== null) parts.push(range(start, previous));
    start = previous = ordinal;
  }
  if (start !== null) parts.push(range(start, previous));
  return parts.join(', ');
}

function drawBand(group, arrows, band, lane, colX, colCx, colW) {
  const x1 = colX(band.span.from) + 3;
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
    class: `handoff status-${band.status.toLowerCase()}${band.atTarget ? ' at-target' : ''}`,
    tabindex: 0,
    role: 'button',
    'aria-label': `handoff ${band.name}, ${band.label}, ${band.status.toLowerCase()}`,
  });
  node.append(svg('rect', { x: x1, y: yTop, width: x2 - x1, height: BAND_H, rx: 5, fill: standing ? colour.base : '#e5e7eb', 'fill-opacity': standing ? 0.2 : 0.7, stroke: standing ? colour.base : '#9aa3af', class: 'band' }));
  const covers = band.coveredRunOrdinals.to > 0 ? ` ${range(band.coveredRunOrdinals.from, band.coveredRunOrdinals.to)}` : '';
  const shown = band.atTarget ? '' : covers;
  const suffix = band.status === 'READY' ? '' : ` · ${band.status.toLowerCase()}`;
  const short = band.label.split(' ')[0].replace('-back', '').replace('subagent', band.label.endsWith('task') ? 'task' : 'result');
  const candidates = [`${band.name} · ${band.label}${shown}${suffix}`, `${band.name} · ${band.label}${shown}`, `${band.name} · ${band.label}`, `${band.name} · ${short}${shown}`, `${band.name} · ${short}`, band.name];
  const text = candidates.find((candidate) => approxWidth(candidate, 11.5) <= x2 - x1 - 12) ?? band.name;
  node.append(svgText(x1 + 7, yTop + BAND_H / 2 + 4, text, { class: 'band-label', fill: standing ? colour.dark : '#4b5563' }));
  node.append(tooltip(`${band.name}: ${band.label}${covers ? `, runs${covers}` : ''} into ${lane.provider} #${lane.seq} · ${band.status}`));
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
  node.append(tooltip(`#${run.ordinal} ${run.provider} · ${run.status}\n${run.plan.decision} (${run.plan.providerThreadAction})\n${run.userMessage.slice(0, 160)}`));
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

function panel(kind, title, children) {
  const details = document.getElementById('details');
  details.dataset.kind = kind;
  details.replaceChildren(html('h2', { text: title }), ...children);
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
  const handoff = model.handoffs.find((entry) => entry.id === id);
  if (!handoff) return html('span', { class: 'mono', title: `${id} (a handoff of the other thread)`, text: shortId(id) });
  const button = html('button', { type: 'button', class: 'link-button', text: `${handoff.name} · ${handoff.label}` });
  button.addEventListener('click', () => {
    const node = document.querySelector(`[data-handoff="${CSS.escape(id)}"]`);
    if (node) select(node, () => showHandoff(handoff));
    else showHandoff(handoff);
  });
  return button;
}

function showRun(run) {
  const plan = run.plan;
  const reasons = html('ul', { class: 'reasons' }, plan.reasons.map((reason) => html('li', { text: reason })));
  const facts = run.facts.length
    ? html('ul', { class: 'facts' }, run.facts.slice(0, 40).map((fact) => html('li', {}, [html('span', { class: 'fact-kind', text: fact.kind.toLowerCase().replace(/_/g, ' ') }), ` ${fact.text}${fact.status ? ` (${fact.status})` : ''}`])))
    : null;
  panel('run', `Run #${run.ordinal} · ${run.provider}`, [
    html('div', { class: 'decision' }, [
      html('span', { class: 'decision-name', text: plan.decision }),
      html('span', { class: 'decision-action', text: plan.providerThreadAction }),
      plan.handoffStrategy ? html('span', { class: 'decision-strategy', text: `${STRATEGY_LABELS[plan.handoffStrategy] ?? plan.handoffStrategy}${plan.coveredRunOrdinals ? ` ${range(plan.coveredRunOrdinals.from, plan.coveredRunOrdinals.to)}` : ''}` }) : null,
    ]),
    plan.stalenessSignals.length ? html('div', { class: 'signals' }, plan.stalenessSignals.map((signal) => html('span', { class: 'signal', text: signal }))) : null,
    html('h3', { text: 'Why' }),
    reasons,
    fields([
      field('status', run.status),
      field('provider thread', laneName(run.providerThread.id)),
      field('context', run.contextHandoff ? handoffButton(run.contextHandoff.id) : null),
      field('model', run.model),
      field('runtime mode', run.runtimeMode),
      field('started', when(run.createdAt)),
      field('completed', when(run.completedAt)),
      field('error', run.error),
    ]),
    html('h3', { text: 'User message' }),
    html('p', { class: 'message', text: run.userMessage }),
    run.assistantMessage ? html('h3', { text: 'Assistant message' }) : null,
    run.assistantMessage ? html('p', { class: 'message', text: run.assistantMessage.length > 2000 ? `${run.assistantMessage.slice(0, 2000)}…` : run.assistantMessage }) : null,
    facts ? html('h3', { text: 'Facts' }) : null,
    facts,
  ].filter(Boolean));
}

function showHandoff(handoff) {
  const covers = handoff.coveredRunOrdinals.to > 0 ? range(handoff.coveredRunOrdinals.from, handoff.coveredRunOrdinals.to) : 'none';
  panel('handoff', `Handoff ${handoff.name} · ${handoff.label}`, [
    html('div', { class: 'decision' }, [
      html('span', { class: `handoff-status status-${handoff.status.toLowerCase()}`, text: handoff.status }),
      html('span', { class: 'decision-strategy', text: handoff.strategy }),
    ]),
    fields([
      field('covers runs', covers),
      field('into', laneName(handoff.toProviderThreadId)),
      field('drawn from', handoff.fromProviderThreadIds.map(laneName).join(', ') || null),
      field('for run', handoff.target ? `#${handoff.target.ordinal}` : handoff.targetRunId),
      field('delivery', handoff.delivery),
      field('written by', `${handoff.source}${handoff.createdByProvider ? ` (${handoff.createdByProvider})` : ''}`),
      field('length', `${handoff.length} characters${handoff.budgetChars ? ` of ${handoff.budgetChars}` : ''}`),
      field('transfers', handoff.transfers.map((transfer) => TRANSFER_LABELS[transfer.kind] ?? transfer.kind).join(', ') || null),
      field('supersedes', handoff.supersedes ? handoffButton(handoff.supersedes.id) : null),
      field('superseded by', handoff.supersededBy ? handoffButton(handoff.supersededBy.id) : null),
      field('failure', handoff.failureReason),
      field('omissions', handoff.omissions.length ? handoff.omissions.join('; ') : null),
      field('id', handoff.id),
    ]),
    html('h3', { text: 'Summary text' }),
    html('pre', { class: 'summary', 'data-summary-of': handoff.id, text: handoff.summaryText }),
  ]);
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
      field('served runs', coverage ? compactOrdinals(coverage.nativeRunOrdinals) || 'none' : null),
      field('handoffs received', coverage?.handoffIds.length ? html('span', {}, coverage.handoffIds.flatMap((id, index) => (index ? [', ', handoffButton(id)] : [handoffButton(id)]))) : coverage ? 'none' : null),
      field('knows through', coverage ? `#${coverage.coveredThroughOrdinal}` : null),
      field('misses', coverage ? compactOrdinals(coverage.missingRunOrdinals) || 'nothing' : null),
      field('forked from', lane.forkedFrom ? html('a', { href: threadHref(lane.forkedFrom.threadId), text: `${lane.forkedFrom.provider} ${shortId(lane.forkedFrom.id)} of ${lane.forkedFrom.threadId}` }) : null),
      field('created', when(lane.createdAt)),
    ]),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Header, legend and the lineage list

function renderHeader(thread) {
  document.title = `${thread.title || thread.id} · Threadline lineage`;
  document.getElementById('title').textContent = thread.title || thread.id;
  const meta = document.getElementById('meta');
  const parts = [html('span', { class: 'mono', text: thread.id }), html('span', { text: `head #${thread.headOrdinal}` }), html('span', { text: `${thread.runs.length} runs` }), html('span', { text: `${thread.providerThreads.length} provider threads` }), html('span', { text: `${thread.handoffs.length} handoffs` })];
  const lineage = thread.lineage;
  if (lineage.parent) {
    const point = lineage.sourcePoint;
    const where = point?.checkpointId ? `checkpoint of run #${point.runOrdinal}` : point?.runOrdinal ? `run #${point.runOrdinal}` : 'its start';
    parts.push(html('span', {}, [`${lineage.relationshipToParent === 'SUBAGENT' ? 'subagent of' : 'fork of'} `, threadLink(lineage.parent), ` at ${where}`]));
  }
  meta.replaceChildren(...parts);
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
  if (thread.transfers.length) {
    const rows = thread.transfers.map((transfer) => html('tr', { 'data-transfer': transfer.id, 'data-kind': transfer.kind }, [
      html('td', { text: TRANSFER_LABELS[transfer.kind] ?? transfer.kind }),
      html('td', {}, transfer.sourceThreadId === thread.id && transfer.targetThreadId === thread.id
        ? ['within this thread']
        : [transfer.sourceThreadId === thread.id ? 'this thread' : threadLink(null, transfer.sourceThreadId), ' → ', transfer.targetThreadId === thread.id ? 'this thread' : threadLink(null, transfer.targetThreadId)]),
      html('td', { text: transfer.sourcePoint.runOrdinal !== null ? `#${transfer.sourcePoint.runOrdinal}${transfer.basePoint?.runOrdinal !== undefined && transfer.basePoint ? ` since #${transfer.basePoint.runOrdinal}` : ''}` : '' }),
      html('td', { text: `${transfer.status.toLowerCase()}${transfer.resolution ? `, ${transfer.resolution.toLowerCase().replace(/_/g, ' ')}` : ''}` }),
      html('td', {}, [transfer.handoff ? handoffButton(transfer.handoff.id) : '']),
    ]));
    children.push(html('h3', { text: 'Context transfers' }), html('table', { class: 'transfers' }, [
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

async function start() {
  if (!threadId) {
    setStatus('No thread id in the address: open /lineage/<threadId>.', 'error');
    document.getElementById('drawing').dataset.state = 'error';
    return;
  }
  try {
    const thread = await loadThread(threadId);
    if (!thread) {
      document.getElementById('title').textContent = 'Thread not found';
      setStatus(`No thread "${threadId}" for this tenant.`, 'error');
      document.getElementById('drawing').dataset.state = 'not-found';
      return;
    }
    model = buildModel(thread);
    setStatus('');
    renderHeader(thread);
    renderLegend(model);
    draw();
    renderLineage(model);
    let timer = null;
    window.addEventListener('resize', () => {
      clearTimeout(timer);
      timer = setTimeout(draw, 150);
    });
  } catch (error) {
    document.getElementById('title').textContent = 'Cannot draw this thread';
    setStatus(error instanceof ViewerError ? error.message : `Unexpected error: ${error.message}`, 'error');
    document.getElementById('drawing').dataset.state = 'error';
  }
}

start();
