// Drawing the lineage as SVG, from the model and the placement layout.ts computed: the grid, the lanes
// with their runs and handoff bands, the branches below, and the legend. Clicks go to the side panel.
import { byId, html, svg, svgText, tooltip } from './dom.js';
import { ACTION_LABELS, approxWidth, compactRanges, count, range, shortId, threadHref } from './format.js';
import {
  BAND_GAP,
  BAND_H,
  HEADER_H,
  LABEL_W,
  RUN_H,
  branchLabel,
  place,
  type Band,
  type Branch,
  type Lane,
  type LaneBox,
  type Model,
  type Placement,
  type Run,
} from './layout.js';
import type { SidePanel } from './panels.js';

interface Colour {
  base: string;
  light: string;
  dark: string;
}

const PROVIDER_COLOURS: Record<string, Colour> = {
  codex: { base: '#0d8a6a', light: '#e3f4ee', dark: '#075c46' },
  claude: { base: '#c8643b', light: '#fbece4', dark: '#8c3f1f' },
};
const PALETTE: Colour[] = [
  { base: '#4f5bd5', light: '#e9ebfb', dark: '#2f389b' },
  { base: '#0b7fb0', light: '#e2f2f9', dark: '#075777' },
  { base: '#b3387a', light: '#f8e6ef', dark: '#7a2051' },
  { base: '#8a6d0b', light: '#f6f0dc', dark: '#5c4807' },
  { base: '#6b46c1', light: '#efe9fa', dark: '#472c86' },
];

/** The colour of each provider: its own for codex and claude, else the next of the palette, kept for the page's life. */
export class Palette {
  private readonly assigned = new Map<string, Colour>();

  of(provider: string): Colour {
    const own = PROVIDER_COLOURS[provider];
    if (own) return own;
    let colour = this.assigned.get(provider);
    if (!colour) {
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- an index modulo the palette's length is in it
      colour = PALETTE[this.assigned.size % PALETTE.length]!;
      this.assigned.set(provider, colour);
    }
    return colour;
  }
}

/** What the drawing's parts share: the model, its placement, and where colours and clicks go. */
interface Scene {
  model: Model;
  at: Placement;
  palette: Palette;
  panel: SidePanel;
  token: string | null;
}

const LANE_BADGES: Record<string, { text: string; fill: string; colour: string }> = {
  STALE: { text: 'STALE · replaced', fill: '#e5e7eb', colour: '#374151' },
  DIVERGENT: { text: 'DIVERGENT', fill: '#fde2e1', colour: '#a61b1b' },
  ROLLED_BACK: { text: 'ROLLED BACK · awaiting native', fill: '#fef3c7', colour: '#92400e' },
  RESUME_FAILED: { text: 'RESUME FAILED', fill: '#fde2e1', colour: '#a61b1b' },
  CLOSED: { text: 'CLOSED', fill: '#e5e7eb', colour: '#374151' },
  ACTIVE: { text: 'active', fill: '#dcfce7', colour: '#166534' },
  IDLE: { text: 'idle', fill: '#f1f5f9', colour: '#475569' },
};

/**
 * Draws the model into #drawing; `reveal` (an ordinal) scrolls so that the runs just before it are in
 * view, as after loading earlier runs. Otherwise the view stays where it was, or opens on the newest runs.
 */
export function draw(
  model: Model,
  palette: Palette,
  panel: SidePanel,
  token: string | null,
  reveal: number | null = null,
): void {
  const drawing = byId('drawing');
  const at = place(model, drawing.clientWidth || 900);
  const scene: Scene = { model, at, palette, panel, token };
  const { thread, lanes, from, branches, forkOrdinal } = model;
  const { colX, colCx, gridRight, width, height } = at;

  // Two SVGs side by side: the lane labels stay put while the runs scroll horizontally.
  const labels = svg('svg', {
    width: LABEL_W,
    height,
    viewBox: `0 0 ${LABEL_W} ${height}`,
    class: 'lane-labels',
    'aria-label': 'Provider threads',
  });
  labels.append(svgText(12, 24, 'run', { class: 'axis-title' }));
  const root = svg('svg', {
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `Lineage of thread ${thread.id}`,
    class: 'lineage-svg',
    'data-columns': at.columns,
    'data-from': from,
  });
  root.append(defs());
  root.append(grid(scene));

  // Lanes, with their runs and the handoffs delivered into them.
  const arrows = svg('g', { class: 'arrows' });
  const laneX = forkOrdinal >= from ? colX(forkOrdinal + 1) - 3 : 0;
  for (const lane of lanes) {
    const box = placed(at.lanes.get(lane.id), `lane ${lane.id}`);
    const colour = palette.of(lane.provider);
    const alert = lane.status === 'DIVERGENT' || lane.status === 'RESUME_FAILED';
    const group = svg('g', {
      'data-lane': lane.id,
      'data-provider': lane.provider,
      'data-lane-status': lane.status,
      class: `lane status-${lane.status.toLowerCase()}`,
    });
    group.append(
      svg('rect', {
        x: laneX,
        y: box.top,
        width: gridRight - laneX,
        height: box.height,
        rx: 8,
        fill: lane.status === 'STALE' ? 'url(#hatch)' : colour.light,
        class: 'lane-bg',
      }),
    );
    if (alert)
      group.append(
        svg('rect', {
          x: laneX + 1,
          y: box.top + 1,
          width: gridRight - laneX - 2,
          height: box.height - 2,
          rx: 8,
          fill: 'none',
          class: 'lane-alert',
        }),
      );
    for (const band of lane.bands) if (band.span) drawBand(scene, group, arrows, band, band.span, lane, box);
    for (const run of lane.runs) drawRun(scene, group, run, lane, box);
    root.append(group);
    labels.append(laneLabel(scene, lane, box, colour, alert));
  }
  root.append(arrows);
  branches.forEach((branch, index) =>
    root.append(drawBranch(scene, branch, placed(at.branchRowY[index], `branch ${index}`), colCx(branch.ordinal))),
  );

  const previous = drawing.querySelector('.drawing-scroll');
  const scrollLeft = previous ? previous.scrollLeft : null;
  const scroller = html('div', { class: 'drawing-scroll' }, [root]);
  drawing.replaceChildren(html('div', { class: 'drawing-labels' }, [labels]), scroller);
  // Open on the newest runs (a long thread scrolls to its head) and stay there on a redraw; after
  // loading earlier runs, the newest of them come into view at the right.
  if (reveal !== null) scroller.scrollLeft = Math.max(0, colX(reveal + 2) - scroller.clientWidth);
  else scroller.scrollLeft = scrollLeft ?? scroller.scrollWidth;
  drawing.dataset.state = 'ready';
  panel.reselect();
}

function arrowMarker(id: string, size: number, fill: string): SVGElement {
  return svg(
    'marker',
    { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: size, markerHeight: size, orient: 'auto-start-reverse' },
    [svg('path', { d: 'M0,0 L10,5 L0,10 z', fill })],
  );
}

function defs(): SVGElement {
  return svg('defs', {}, [
    svg(
      'pattern',
      { id: 'hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      [
        svg('rect', { width: 8, height: 8, fill: '#f3f4f6' }),
        svg('line', { x1: 0, y1: 0, x2: 0, y2: 8, stroke: '#c9ced6', 'stroke-width': 3 }),
      ],
    ),
    svg(
      'pattern',
      { id: 'inherited', width: 10, height: 10, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(-45)' },
      [
        svg('rect', { width: 10, height: 10, fill: '#f5f3ff' }),
        svg('line', { x1: 0, y1: 0, x2: 0, y2: 10, stroke: '#e4defc', 'stroke-width': 4 }),
      ],
    ),
    arrowMarker('arrow', 7, '#475569'),
    arrowMarker('arrow-muted', 7, '#9aa3af'),
    arrowMarker('arrow-branch', 6, '#6d28d9'),
    arrowMarker('arrow-blue', 6, '#2563eb'),
  ]);
}

/** Column header, grid lines, the head's pill and a fork's inherited region. */
function grid({ model, at, token }: Scene): SVGElement {
  const { thread, from, to, forkOrdinal } = model;
  const { colX, colCx, gridRight, lanesBottom } = at;
  const group = svg('g', { class: 'grid' });
  const parent = thread.lineage.parent;
  if (forkOrdinal >= from && parent) {
    const x1 = colX(from);
    const x2 = colX(forkOrdinal + 1);
    group.append(
      svg(
        'rect',
        {
          x: x1,
          y: HEADER_H - 6,
          width: x2 - x1,
          height: lanesBottom - HEADER_H + 12,
          fill: 'url(#inherited)',
          rx: 6,
          class: 'inherited',
        },
        [tooltip(`Runs ${range(1, forkOrdinal)} are inherited from ${parent.id}`)],
      ),
    );
    const cx = (x1 + x2) / 2;
    const cy = (HEADER_H + lanesBottom) / 2;
    const parentName = parent.title || parent.id;
    const maxChars = Math.max(6, Math.floor((x2 - x1 - 12) / 7));
    const lines = [
      `runs ${range(1, forkOrdinal)} inherited`,
      'from',
      parentName.length > maxChars ? `${parentName.slice(0, maxChars - 1)}…` : parentName,
    ];
    const label = svg('text', { x: cx, y: cy - 14, 'text-anchor': 'middle', class: 'inherited-label' });
    lines.forEach((line, index) => {
      const span = svg('tspan', { x: cx, dy: index ? 16 : 0 });
      span.textContent = line;
      label.append(span);
    });
    group.append(svg('a', { href: threadHref(parent.id, token), class: 'inherited-link' }, [label]));
  }
  for (let ordinal = from; ordinal <= to; ordinal++) {
    const isHead = ordinal === thread.headOrdinal;
    group.append(
      svg('line', { x1: colX(ordinal), y1: HEADER_H - 4, x2: colX(ordinal), y2: lanesBottom, class: 'gridline' }),
    );
    if (isHead) {
      const pillW = Math.max(42, approxWidth(String(ordinal), 13) + 16);
      group.append(
        svg('rect', { x: colCx(ordinal) - pillW / 2, y: 7, width: pillW, height: 24, rx: 12, class: 'head-pill' }, [
          tooltip('head: the newest live run'),
        ]),
      );
    }
    group.append(
      svgText(colCx(ordinal), 24, String(ordinal), {
        class: isHead ? 'col-label head' : 'col-label',
        'text-anchor': 'middle',
      }),
    );
  }
  group.append(svg('line', { x1: gridRight, y1: HEADER_H - 4, x2: gridRight, y2: lanesBottom, class: 'gridline' }));
  return group;
}

/** A branch below the lanes: forks and subagents leaving, merge-backs and results coming in. */
function drawBranch({ at, token }: Scene, branch: Branch, rowY: number, x: number): SVGElement {
  const { lanesBottom } = at;
  const group = svg('g', {
    class: `branch branch-${branch.kind}`,
    'data-branch': branch.kind,
    'data-branch-thread': branch.threadId,
    'data-branch-direction': branch.direction,
  });
  const blue = branch.kind === 'subagent' || branch.kind === 'result';
  const line =
    branch.direction === 'in'
      ? svg('path', {
          d: `M${x + 12},${rowY} Q${x},${rowY} ${x},${rowY - 10} L${x},${lanesBottom + 4}`,
          class: 'branch-line',
          'marker-end': blue ? 'url(#arrow-blue)' : 'url(#arrow-branch)',
        })
      : svg('path', {
          d: `M${x},${lanesBottom + 2} L${x},${rowY - 10} Q${x},${rowY} ${x + 12},${rowY}`,
          class: 'branch-line',
        });
  group.append(line);
  group.append(svg('circle', { cx: x + 16, cy: rowY, r: 4, class: 'branch-dot' }));
  const link = svg('a', { href: threadHref(branch.threadId, token) }, [
    svgText(x + 26, rowY + 4.5, branchLabel(branch), { class: 'branch-label' }),
  ]);
  group.append(
    link,
    tooltip(
      `${branch.kind} ${branch.direction === 'in' ? 'from' : 'to'} ${branch.threadId}${branch.status ? ` (${branch.status})` : ''}`,
    ),
  );
  return group;
}

/** A lane's label: provider, its number on the thread, its id, its status and what it knows. */
function laneLabel({ panel }: Scene, lane: Lane, box: LaneBox, colour: Colour, alert: boolean): SVGElement {
  const label = svg('g', {
    class: `lane-label status-${lane.status.toLowerCase()}`,
    'data-lane-label': lane.id,
    tabindex: 0,
    role: 'button',
    'aria-label': `${lane.provider} provider thread ${lane.id}, ${lane.status.toLowerCase()}`,
  });
  label.append(
    svg('rect', {
      x: 4,
      y: box.top,
      width: LABEL_W - 8,
      height: box.height,
      rx: 8,
      fill: '#ffffff',
      class: alert ? 'lane-label-bg alert' : 'lane-label-bg',
    }),
  );
  label.append(svg('rect', { x: 4, y: box.top, width: 7, height: box.height, rx: 3, fill: colour.base }));
  const textTop = box.top + Math.max(19, box.height / 2 - 23);
  label.append(svgText(20, textTop, lane.provider, { class: 'lane-provider', fill: colour.dark }));
  label.append(svgText(20 + approxWidth(lane.provider, 15) + 8, textTop, `#${lane.seq}`, { class: 'lane-seq' }));
  label.append(svgText(20, textTop + 17, shortId(lane.id), { class: 'lane-id' }));
  const badge = LANE_BADGES[lane.status] ?? { text: lane.status.toLowerCase(), fill: '#f1f5f9', colour: '#475569' };
  const badgeW = approxWidth(badge.text, badge.text === badge.text.toUpperCase() ? 12.4 : 10.8) + 14;
  label.append(
    svg('rect', { x: 20, y: textTop + 24, width: badgeW, height: 17, rx: 8.5, fill: badge.fill, class: 'lane-badge' }),
  );
  label.append(svgText(27, textTop + 36.5, badge.text, { class: 'lane-badge-text', fill: badge.colour }));
  if (lane.coverage) {
    const missing = lane.coverage.missingRanges;
    const knows = lane.coverage.coveredThroughOrdinal
      ? `knows to #${lane.coverage.coveredThroughOrdinal}`
      : 'knows none of these runs';
    let knowsText = missing.length ? `${knows} · misses ${compactRanges(missing)}` : knows;
    if (knowsText.length > 32) knowsText = `${knowsText.slice(0, 31)}…`;
    label.append(svgText(20, textTop + 55, knowsText, { class: 'lane-knows' }));
  }
  label.append(
    tooltip(
      `${lane.provider} provider thread ${lane.id}\nstatus ${lane.status}${lane.forkedFrom ? `\nnatively forked from ${lane.forkedFrom.id} (thread ${lane.forkedFrom.threadId})` : ''}`,
    ),
  );
  panel.wire(label, () => panel.showLane(lane));
  return label;
}

/** A handoff's band; one that covers runs before the first drawn is cut at the left edge, with a chevron pointing to them. */
function drawBand(
  { model, at, palette, panel }: Scene,
  group: SVGElement,
  arrows: SVGElement,
  band: Band,
  span: NonNullable<Band['span']>,
  lane: Lane,
  box: LaneBox,
): void {
  const { colX, colCx } = at;
  const x1 = band.clipped ? colX(span.from) : colX(span.from) + 3;
  const x2 = colX(span.to + 1) - 3;
  const yTop = box.bandTop + placed(at.bandRows.get(band.id), `band ${band.id}`) * (BAND_H + BAND_GAP);
  const colour = palette.of(band.sourceProvider ?? lane.provider);
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
  node.append(
    svg('rect', {
      x: x1,
      y: yTop,
      width: x2 - x1,
      height: BAND_H,
      rx: 5,
      fill: standing ? colour.base : '#e5e7eb',
      'fill-opacity': standing ? 0.2 : 0.7,
      stroke: standing ? colour.base : '#9aa3af',
      class: 'band',
    }),
  );
  const textX = band.clipped ? x1 + 14 : x1 + 7;
  if (band.clipped)
    node.append(
      svg('path', {
        d: `M${x1 + 9},${yTop + 6} L${x1 + 4},${yTop + BAND_H / 2} L${x1 + 9},${yTop + BAND_H - 6}`,
        class: 'band-clip',
        stroke: standing ? colour.dark : '#4b5563',
      }),
    );
  const covers =
    band.coveredRunOrdinals.to > 0 ? ` ${range(band.coveredRunOrdinals.from, band.coveredRunOrdinals.to)}` : '';
  const shown = band.atTarget ? '' : covers;
  const suffix = band.status === 'READY' ? '' : ` · ${band.status.toLowerCase()}`;
  const [kind = ''] = band.label.split(' ', 1);
  const short = kind.replace('-back', '').replace('subagent', band.label.endsWith('task') ? 'task' : 'result');
  const candidates = [
    `${band.name} · ${band.label}${shown}${suffix}`,
    `${band.name} · ${band.label}${shown}`,
    `${band.name} · ${band.label}`,
    `${band.name} · ${short}${shown}`,
    `${band.name} · ${short}`,
    band.name,
  ];
  const text = candidates.find((candidate) => approxWidth(candidate, 11.5) <= x2 - textX - 5) ?? band.name;
  node.append(
    svgText(textX, yTop + BAND_H / 2 + 4, text, { class: 'band-label', fill: standing ? colour.dark : '#4b5563' }),
  );
  node.append(
    tooltip(
      `${band.name}: ${band.label}${covers ? `, runs${covers}` : ''} into ${lane.provider} #${lane.seq} · ${band.status}${band.clipped ? `\nstarts before run #${count(model.from)}: load earlier runs to see all of it` : ''}`,
    ),
  );
  panel.wire(node, () => panel.showHandoff(band));
  group.append(node);

  // An arrow from the band to the run it was the context of.
  const target = band.target;
  const targetLane = target ? model.laneById.get(target.providerThread.id) : undefined;
  if (!target || !targetLane) return;
  const tx = colCx(target.ordinal);
  const ty = placed(at.lanes.get(targetLane.id), `lane ${targetLane.id}`).runTop - 1;
  const by = yTop + BAND_H;
  let d;
  if (tx >= x1 && tx <= x2 && targetLane === lane) d = `M${tx},${by} L${tx},${ty}`;
  else if (tx > x2)
    d = `M${x2},${yTop + BAND_H / 2} C${tx},${yTop + BAND_H / 2} ${tx},${yTop + BAND_H / 2} ${tx},${ty}`;
  else d = `M${x1},${yTop + BAND_H / 2} C${tx},${yTop + BAND_H / 2} ${tx},${yTop + BAND_H / 2} ${tx},${ty}`;
  arrows.append(
    svg('path', {
      d,
      class: standing ? 'handoff-arrow' : 'handoff-arrow muted',
      'marker-end': standing ? 'url(#arrow)' : 'url(#arrow-muted)',
      'data-arrow-of': band.id,
    }),
  );
}

function drawRun({ at, palette, panel }: Scene, group: SVGElement, run: Run, lane: Lane, box: LaneBox): void {
  const colour = palette.of(run.provider);
  const x = at.colX(run.ordinal) + 5;
  const w = at.colW - 10;
  const yTop = box.runTop;
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
  node.append(
    svg('rect', {
      x,
      y: yTop,
      width: w,
      height: RUN_H,
      rx: 7,
      fill: rolledBack ? '#d1d5db' : colour.base,
      class: 'run-box',
    }),
  );
  node.append(
    svgText(x + w / 2, yTop + (w >= 58 ? 19 : 27), `#${run.ordinal}`, {
      class: 'run-label',
      'text-anchor': 'middle',
      fill: rolledBack ? '#6b7280' : '#ffffff',
    }),
  );
  if (w >= 58) {
    const sub = rolledBack
      ? 'rolled back'
      : run.status === 'COMPLETED'
        ? (ACTION_LABELS[run.plan.providerThreadAction] ?? '')
        : run.status.toLowerCase();
    node.append(
      svgText(x + w / 2, yTop + 34, sub, {
        class: 'run-sub',
        'text-anchor': 'middle',
        fill: rolledBack ? '#6b7280' : '#ffffff',
      }),
    );
  }
  if (rolledBack)
    node.append(svg('line', { x1: x + 4, y1: yTop + RUN_H / 2, x2: x + w - 4, y2: yTop + RUN_H / 2, class: 'strike' }));
  node.append(
    tooltip(
      `#${run.ordinal} ${run.provider} · ${run.status}\n${run.plan.decision} (${run.plan.providerThreadAction})\nclick for its plan's reasons and messages`,
    ),
  );
  panel.wire(node, () => panel.showRun(run));
  group.append(node);
}

function legendSwatch(drawIcon: (icon: SVGElement) => void, label: string): HTMLElement {
  const icon = svg('svg', { width: 30, height: 18, viewBox: '0 0 30 18', 'aria-hidden': 'true' });
  drawIcon(icon);
  return html('span', { class: 'legend-item' }, [icon, label]);
}

/** The legend: one swatch per provider drawn, then what the marks mean. */
export function drawLegend(model: Model, palette: Palette): void {
  const providers = [...new Set(model.lanes.map((lane) => lane.provider))];
  const items = providers.map((provider) =>
    legendSwatch(
      (icon) => icon.append(svg('rect', { x: 2, y: 2, width: 26, height: 14, rx: 4, fill: palette.of(provider).base })),
      provider,
    ),
  );
  items.push(
    legendSwatch(
      (icon) =>
        icon.append(
          svg('rect', { x: 2, y: 2, width: 26, height: 14, rx: 4, fill: '#d1d5db' }),
          svg('line', { x1: 5, y1: 9, x2: 25, y2: 9, class: 'strike' }),
        ),
      'rolled back',
    ),
    legendSwatch(
      (icon) =>
        icon.append(
          svg('rect', {
            x: 2,
            y: 3,
            width: 26,
            height: 12,
            rx: 3,
            fill: '#64748b',
            'fill-opacity': 0.2,
            stroke: '#64748b',
            'stroke-width': 1.5,
          }),
        ),
      'handoff over the runs it covers, coloured by its source',
    ),
    legendSwatch(
      (icon) =>
        icon.append(
          svg('rect', {
            x: 2,
            y: 3,
            width: 26,
            height: 12,
            rx: 3,
            fill: '#e5e7eb',
            stroke: '#9aa3af',
            'stroke-width': 1.5,
            'stroke-dasharray': '4 3',
          }),
        ),
      'superseded or failed',
    ),
    legendSwatch(
      (icon) =>
        icon.append(
          svg('rect', { x: 1, y: 1, width: 28, height: 16, rx: 3, fill: 'url(#legend-hatch)' }),
          svg('defs', {}, [
            svg(
              'pattern',
              {
                id: 'legend-hatch',
                width: 6,
                height: 6,
                patternUnits: 'userSpaceOnUse',
                patternTransform: 'rotate(45)',
              },
              [
                svg('rect', { width: 6, height: 6, fill: '#f3f4f6' }),
                svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#c9ced6', 'stroke-width': 2.5 }),
              ],
            ),
          ]),
        ),
      'stale lane',
    ),
    legendSwatch(
      (icon) =>
        icon.append(
          svg('rect', {
            x: 2,
            y: 2,
            width: 26,
            height: 14,
            rx: 4,
            fill: '#fff',
            stroke: '#dc2626',
            'stroke-width': 2,
            'stroke-dasharray': '5 3',
          }),
        ),
      'divergent lane',
    ),
    legendSwatch(
      (icon) =>
        icon.append(
          svg('path', {
            d: 'M4,2 L4,10 Q4,15 10,15 L24,15',
            fill: 'none',
            stroke: '#6d28d9',
            'stroke-width': 2,
            'stroke-dasharray': '5 3',
          }),
        ),
      'fork, subagent, merge-back',
    ),
  );
  byId('legend').replaceChildren(...items);
}

/** What layout.ts placed: it places every lane, band and branch of the model it is given. */
function placed<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`The layout placed no ${what}`);
  return value;
}
