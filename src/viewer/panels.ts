// The side panel and the selection: what the drawing knows of a run, a handoff or a lane at once, then
// the texts read for it (load.ts's Details), unless another click replaced the panel meanwhile.
import { byId, html } from './dom.js';
import {
  STRATEGY_LABELS,
  TRANSFER_LABELS,
  compactRanges,
  count,
  cut,
  range,
  shortId,
  threadHref,
  when,
} from './format.js';
import type { Band, Lane, Model, Run } from './layout.js';
import { ViewerError, type Details, type HandoffDetails, type RunDetails } from './load.js';
import { SHOWN } from './queries.js';

type Content = Node | null;

function field(name: string, value: Node | string | number | null | undefined): Content {
  if (value === null || value === undefined || value === '') return null;
  return html('div', { class: 'field' }, [
    html('dt', { text: name }),
    html('dd', {}, [value instanceof Node ? value : String(value)]),
  ]);
}

function fields(entries: Content[]): HTMLElement {
  return html('dl', { class: 'fields' }, entries);
}

/** The note under a text that was cut: how much of it is shown. */
function cutNote(length: number, shown: number): Content {
  return length > shown
    ? html('p', { class: 'hint', text: `The first ${count(shown)} of ${count(length)} characters.` })
    : null;
}

const RECEIPT_ROWS = [
  ['files', 'files changed'],
  ['commands', 'commands and tests'],
  ['failures', 'unresolved failures'],
  ['todos', 'open todos'],
  ['questions', 'open questions'],
] as const;

/** What the handoff's text keeps of what its runs hold, per kind; a kind it dropped something of is marked. */
function receiptTable(receipt: HandoffDetails['receipt']): Content {
  if (!receipt) return null;
  const rows = RECEIPT_ROWS.map(([kind, label]) => {
    const line = receipt[kind];
    const dropped = line.kept < line.held;
    const more = line.held - line.kept - line.omitted.length;
    return html('tr', { class: dropped ? 'receipt-dropped' : null, 'data-receipt-kind': kind }, [
      html('th', { text: label }),
      html('td', { text: `${count(line.kept)} of ${count(line.held)}` }),
      html('td', { text: [...line.omitted, ...(more > 0 ? [`… ${count(more)} more`] : [])].join('; ') }),
    ]);
  });
  return html('div', {}, [
    html('h3', { text: 'Continuity receipt' }),
    html('table', { class: 'receipt' }, [
      html('tr', {}, [html('th', { text: 'kind' }), html('th', { text: 'kept' }), html('th', { text: 'left out' })]),
      ...rows,
    ]),
  ]);
}

interface Plan {
  decision: string;
  providerThreadAction: string;
  handoffStrategy?: RunDetails['plan']['handoffStrategy'];
  coveredRunOrdinals?: RunDetails['plan']['coveredRunOrdinals'];
}

function decisionLine(plan: Plan): HTMLElement {
  return html('div', { class: 'decision' }, [
    html('span', { class: 'decision-name', text: plan.decision }),
    html('span', { class: 'decision-action', text: plan.providerThreadAction }),
    plan.handoffStrategy
      ? html('span', {
          class: 'decision-strategy',
          text: `${STRATEGY_LABELS[plan.handoffStrategy] ?? plan.handoffStrategy}${plan.coveredRunOrdinals ? ` ${range(plan.coveredRunOrdinals.from, plan.coveredRunOrdinals.to)}` : ''}`,
        })
      : null,
  ]);
}

function handoffStatusLine(handoff: Band): HTMLElement {
  return html('div', { class: 'decision' }, [
    html('span', { class: `handoff-status status-${handoff.status.toLowerCase()}`, text: handoff.status }),
    html('span', { class: 'decision-strategy', text: handoff.strategy }),
  ]);
}

export class SidePanel {
  /** The selected element, found again after a redraw. */
  private selectedKey: string | null = null;
  /** The number of the panel shown, so that a late answer does not replace a newer panel. */
  private shown = 0;

  constructor(
    private readonly details: Details,
    private readonly token: string | null,
    /** The model drawn now, whose lanes and handoffs the panels name. */
    private readonly current: () => Model,
  ) {}

  /** Selects `node` and shows its panel on a click, Enter or Space. */
  wire(node: Element, show: () => void): void {
    const activate = (event: Event) => {
      event.preventDefault();
      event.stopPropagation();
      this.select(node, show);
    };
    node.addEventListener('click', activate);
    node.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key === 'Enter' || (event as KeyboardEvent).key === ' ') activate(event);
    });
  }

  private select(node: Element, show: () => void): void {
    document.querySelectorAll('.selected').forEach((element) => element.classList.remove('selected'));
    node.classList.add('selected');
    this.selectedKey = selectionKey(node);
    show();
  }

  /** Marks the selected element again in a new drawing. */
  reselect(): void {
    const node = this.selectedKey ? document.querySelector(this.selectedKey) : null;
    if (node) node.classList.add('selected');
  }

  /** Fills the side panel: data-state is "loading" while what was clicked is still being read. Returns the panel's number. */
  private panel(kind: string, title: string, children: Content[], state = 'ready'): number {
    const details = byId('details');
    details.dataset.kind = kind;
    details.dataset.state = state;
    details.replaceChildren(html('h2', { text: title }), ...children.filter((child): child is Node => child !== null));
    return ++this.shown;
  }

  /** Shows what the drawing knows at once, then the full panel once `load` has read the rest, unless another panel replaced it meanwhile. */
  private async panelWithDetails<T>(
    kind: string,
    title: string,
    known: Content[],
    load: () => Promise<T | null>,
    full: (details: T) => Content[],
  ): Promise<void> {
    const shown = this.panel(kind, title, [...known, html('p', { class: 'hint', text: 'Reading…' })], 'loading');
    try {
      const details = await load();
      if (!details) throw new ViewerError('It is no longer there.');
      if (shown === this.shown) this.panel(kind, title, full(details));
    } catch (error) {
      if (shown === this.shown)
        this.panel(
          kind,
          title,
          [...known, html('p', { class: 'panel-error', text: `Cannot read the details: ${(error as Error).message}` })],
          'error',
        );
    }
  }

  private laneName(id: string): string {
    const lane = this.current().laneById.get(id);
    return lane ? `${lane.provider} #${lane.seq} (${shortId(id)})` : id;
  }

  /** A handoff by id: a button that selects its band, or its short id when it was not made for a run shown. */
  handoffButton(id: string): HTMLElement {
    const handoff = this.current().handoffById.get(id);
    if (!handoff) return html('span', { class: 'mono', title: `${id} (not made for a run shown)`, text: shortId(id) });
    const button = html('button', { type: 'button', class: 'link-button', text: `${handoff.name} · ${handoff.label}` });
    button.addEventListener('click', () => {
      const node = document.querySelector(`[data-handoff="${CSS.escape(id)}"]`);
      if (node) this.select(node, () => this.showHandoff(handoff));
      else this.showHandoff(handoff);
    });
    return button;
  }

  private handoffButtons(ids: string[], most: number): HTMLElement {
    const shown: (Node | string)[] = ids
      .slice(0, most)
      .flatMap((id, index) => (index ? [', ', this.handoffButton(id)] : [this.handoffButton(id)]));
    if (ids.length > most) shown.push(` and ${count(ids.length - most)} more`);
    return html('span', {}, shown);
  }

  /** A run: its decision at once, its plan's reasons, messages and facts once read. */
  showRun(run: Run): void {
    const known = [
      decisionLine(run.plan),
      fields([field('status', run.status), field('provider thread', this.laneName(run.providerThread.id))]),
    ];
    void this.panelWithDetails(
      'run',
      `Run #${run.ordinal} · ${run.provider}`,
      known,
      () => this.details.run(run.id),
      (details) => this.runPanel(run, details),
    );
  }

  private runPanel(run: Run, details: RunDetails): Content[] {
    const plan = { ...run.plan, ...details.plan };
    const facts = details.facts.length
      ? html(
          'ul',
          { class: 'facts' },
          details.facts.map((fact) =>
            html('li', {}, [
              html('span', { class: 'fact-kind', text: fact.kind.toLowerCase().replace(/_/g, ' ') }),
              ` ${cut(fact.text, fact.textLength, SHOWN.factText)}${fact.status ? ` (${fact.status})` : ''}`,
            ]),
          ),
        )
      : null;
    return [
      decisionLine(plan),
      plan.stalenessSignals.length
        ? html(
            'div',
            { class: 'signals' },
            plan.stalenessSignals.map((signal) => html('span', { class: 'signal', text: signal })),
          )
        : null,
      html('h3', { text: 'Why' }),
      html(
        'ul',
        { class: 'reasons' },
        plan.reasons.map((reason) => html('li', { text: reason })),
      ),
      fields([
        field('status', run.status),
        field('provider thread', this.laneName(run.providerThread.id)),
        field('context', details.contextHandoff ? this.handoffButton(details.contextHandoff.id) : null),
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
      details.assistantMessage
        ? html('p', {
            class: 'message',
            text: cut(details.assistantMessage, details.assistantMessageLength ?? 0, SHOWN.message),
          })
        : null,
      details.assistantMessage ? cutNote(details.assistantMessageLength ?? 0, SHOWN.message) : null,
      facts ? html('h3', { text: 'Facts' }) : null,
      facts,
      details.factCount > details.facts.length
        ? html('p', {
            class: 'hint',
            text: `The first ${count(details.facts.length)} of ${count(details.factCount)} facts.`,
          })
        : null,
    ];
  }

  /** A handoff: what its band shows at once, its provenance and summary text once read. */
  showHandoff(handoff: Band): void {
    const known = [handoffStatusLine(handoff), fields(this.handoffFields(handoff))];
    void this.panelWithDetails(
      'handoff',
      `Handoff ${handoff.name} · ${handoff.label}`,
      known,
      () => this.details.handoff(handoff.id),
      (details) => this.handoffPanel(handoff, details),
    );
  }

  private handoffFields(handoff: Band): Content[] {
    return [
      field(
        'covers runs',
        handoff.coveredRunOrdinals.to > 0
          ? range(handoff.coveredRunOrdinals.from, handoff.coveredRunOrdinals.to)
          : 'none',
      ),
      field('into', this.laneName(handoff.toProviderThreadId)),
      field('drawn from', handoff.fromProviderThreadIds.map((id) => this.laneName(id)).join(', ') || null),
      field('for run', handoff.target ? `#${handoff.target.ordinal}` : handoff.targetRunId),
    ];
  }

  private handoffPanel(handoff: Band, details: HandoffDetails): Content[] {
    return [
      handoffStatusLine(handoff),
      fields([
        ...this.handoffFields(handoff),
        field('delivery', details.delivery),
        field('written by', `${details.source}${details.createdByProvider ? ` (${details.createdByProvider})` : ''}`),
        field(
          'length',
          `${count(details.length)} characters${details.budgetChars ? ` of ${count(details.budgetChars)}` : ''}`,
        ),
        field(
          'transfers',
          handoff.transfers.map((transfer) => TRANSFER_LABELS[transfer.kind] ?? transfer.kind).join(', ') || null,
        ),
        field('supersedes', details.supersedes ? this.handoffButton(details.supersedes.id) : null),
        field('superseded by', details.supersededBy ? this.handoffButton(details.supersededBy.id) : null),
        field('failure', details.failureReason),
        field('omissions', details.omissions.length ? details.omissions.join('; ') : null),
        field('id', handoff.id),
      ]),
      receiptTable(details.receipt),
      html('h3', { text: 'Summary text' }),
      html('pre', {
        class: 'summary',
        'data-summary-of': handoff.id,
        text: cut(details.summaryText, details.length, SHOWN.summary),
      }),
      cutNote(details.length, SHOWN.summary),
    ];
  }

  showLane(lane: Lane): void {
    const coverage = lane.coverage;
    this.panel('lane', `${lane.provider} #${lane.seq}`, [
      html('div', { class: 'decision' }, [
        html('span', { class: `lane-status status-${lane.status.toLowerCase()}`, text: lane.status }),
      ]),
      fields([
        field('provider thread', lane.id),
        field('native id', lane.nativeThreadRef),
        field('model', lane.model),
        field('runtime mode', lane.runtimeMode),
        field('served, of the runs read', coverage ? compactRanges(coverage.nativeRanges) || 'none' : null),
        field(
          'handoffs received',
          coverage?.handoffIds.length ? this.handoffButtons(coverage.handoffIds, 12) : coverage ? 'none' : null,
        ),
        field('knows through, of the runs read', coverage ? `#${coverage.coveredThroughOrdinal}` : null),
        field('misses, of the runs read', coverage ? compactRanges(coverage.missingRanges) || 'nothing' : null),
        field(
          'forked from',
          lane.forkedFrom
            ? html('a', {
                href: threadHref(lane.forkedFrom.threadId, this.token),
                text: `${lane.forkedFrom.provider} ${shortId(lane.forkedFrom.id)} of ${lane.forkedFrom.threadId}`,
              })
            : null,
        ),
        field('created', when(lane.createdAt)),
      ]),
    ]);
  }
}

function selectionKey(node: Element): string | null {
  for (const name of ['data-handoff', 'data-run-id', 'data-lane-label']) {
    const value = node.getAttribute(name);
    if (value !== null) return `[${name}="${CSS.escape(value)}"]`;
  }
  return null;
}
