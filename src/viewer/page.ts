// The page around the drawing: the thread's header, the bar of the window read, the lineage list of
// forks, subagents and transfers, and the status line.
import { byId, html } from './dom.js';
import { TRANSFER_LABELS, count, range, threadHref } from './format.js';
import { forkOrdinalOf, newestOrdinal, transferStatus, type Loaded, type Model } from './layout.js';
import type { SidePanel } from './panels.js';

function threadLink(
  thread: { id: string; title: string | null } | null,
  fallbackId: string,
  token: string | null,
): HTMLElement {
  const id = thread?.id ?? fallbackId;
  return html('a', { href: threadHref(id, token), text: thread?.title ? `${thread.title} (${id})` : id });
}

/** Which runs are drawn: "runs 9,801–10,000 of 10,000" (the thread's own runs read, of its newest ordinal). */
function windowText(loaded: Loaded): string {
  const forkOrdinal = forkOrdinalOf(loaded.thread);
  const inherited = forkOrdinal ? ` (${range(1, forkOrdinal)} inherited)` : '';
  const [first] = loaded.runs;
  const last = loaded.runs.at(-1);
  if (!first || !last) return `no runs of its own yet${inherited}`;
  return `runs ${range(first.ordinal, last.ordinal)} of ${count(newestOrdinal(loaded))}${inherited}`;
}

export function renderHeader(loaded: Loaded, model: Model, token: string | null): void {
  const { thread } = model;
  document.title = `${thread.title || thread.id} · Threadline lineage`;
  byId('title').textContent = thread.title || thread.id;
  const parts = [
    html('span', { class: 'mono', text: thread.id }),
    html('span', { text: `head #${count(thread.headOrdinal)}` }),
    html('span', { id: 'window-range', text: windowText(loaded) }),
    html('span', { text: `${count(thread.providerThreadCount)} provider threads` }),
    html('span', { text: `${count(model.handoffs.length)} handoffs${loaded.hasEarlier ? ' in view' : ''}` }),
  ];
  const lineage = thread.lineage;
  if (lineage.parent) {
    const point = lineage.sourcePoint;
    const where = point?.checkpointId
      ? `checkpoint of run #${point.runOrdinal}`
      : point?.runOrdinal
        ? `run #${point.runOrdinal}`
        : 'its start';
    parts.push(
      html('span', {}, [
        `${lineage.relationshipToParent === 'SUBAGENT' ? 'subagent of' : 'fork of'} `,
        threadLink(lineage.parent, lineage.parent.id, token),
        ` at ${where}`,
      ]),
    );
  }
  byId('meta').replaceChildren(...parts);
}

export const LOAD_EARLIER = '◂ Load earlier runs';

/** While earlier runs remain unread: how many, and the control that reads the window before the first drawn. */
export function renderWindowBar(loaded: Loaded, loadEarlier: (button: HTMLButtonElement) => void): void {
  const bar = byId('window');
  const first = loaded.runs[0];
  bar.hidden = !loaded.hasEarlier;
  if (!loaded.hasEarlier || !first) {
    bar.replaceChildren();
    return;
  }
  const earlier = first.ordinal - forkOrdinalOf(loaded.thread) - 1;
  const button = html('button', {
    type: 'button',
    id: 'load-earlier',
    class: 'load-earlier',
    text: LOAD_EARLIER,
  }) as HTMLButtonElement;
  button.addEventListener('click', () => loadEarlier(button));
  bar.replaceChildren(
    button,
    html('span', {
      text: `Showing ${windowText(loaded)}; ${count(earlier)} earlier ${earlier === 1 ? 'run is' : 'runs are'} not read yet.`,
    }),
  );
}

export function renderLineage(loaded: Loaded, model: Model, panel: SidePanel, token: string | null): void {
  const { thread } = model;
  const children: Node[] = [html('h2', { text: 'Lineage' })];
  const chain = [...thread.ancestors].reverse();
  if (chain.length) {
    const path = html('p', { class: 'ancestry' }, []);
    for (const ancestor of chain) path.append(threadLink(ancestor, ancestor.id, token), ' › ');
    path.append(html('strong', { text: thread.title || thread.id }));
    children.push(path);
  } else {
    children.push(html('p', { class: 'ancestry', text: 'A root thread.' }));
  }
  const list = <T>(title: string, entries: T[], render: (entry: T) => (Node | string)[]) => {
    if (!entries.length) return;
    children.push(
      html('h3', { text: title }),
      html(
        'ul',
        { class: 'branch-list' },
        entries.map((entry) => html('li', {}, render(entry))),
      ),
    );
  };
  const bySourceRun = <T extends { lineage: { sourcePoint?: { runOrdinal?: number | null } | null } }>(
    entries: Map<string, T>,
  ) =>
    [...entries.values()].sort(
      (a, b) => (a.lineage.sourcePoint?.runOrdinal ?? 0) - (b.lineage.sourcePoint?.runOrdinal ?? 0),
    );
  list('Forks of the runs read', bySourceRun(loaded.forks), (fork) => [
    threadLink(fork, fork.id, token),
    ` from run #${fork.lineage.sourcePoint?.runOrdinal ?? '?'}${fork.lineage.sourcePoint?.checkpointId ? ' (checkpoint)' : ''}`,
  ]);
  list('Subagents of the runs read', bySourceRun(loaded.subagents), (child) => [
    threadLink(child, child.id, token),
    ` spawned by run #${child.lineage.sourcePoint?.runOrdinal ?? '?'}`,
  ]);
  if (model.transfers.length) {
    const rows = model.transfers.map((transfer) =>
      html('tr', { 'data-transfer': transfer.id, 'data-kind': transfer.kind }, [
        html('td', { text: TRANSFER_LABELS[transfer.kind] ?? transfer.kind }),
        html(
          'td',
          {},
          transfer.sourceThreadId === thread.id && transfer.targetThreadId === thread.id
            ? ['within this thread']
            : [
                transfer.sourceThreadId === thread.id
                  ? 'this thread'
                  : threadLink(null, transfer.sourceThreadId, token),
                ' → ',
                transfer.targetThreadId === thread.id
                  ? 'this thread'
                  : threadLink(null, transfer.targetThreadId, token),
              ],
        ),
        html('td', {
          text:
            transfer.sourcePoint.runOrdinal !== null
              ? `#${transfer.sourcePoint.runOrdinal}${transfer.basePoint ? ` since #${transfer.basePoint.runOrdinal}` : ''}`
              : '',
        }),
        html('td', { text: transferStatus(transfer) }),
        html('td', {}, [transfer.handoff ? panel.handoffButton(transfer.handoff.id) : '']),
      ]),
    );
    children.push(
      html('h3', {
        text: loaded.hasEarlier ? `Context transfers of runs ${range(model.from, model.to)}` : 'Context transfers',
      }),
      html('table', { class: 'transfers' }, [
        html('thead', {}, [
          html(
            'tr',
            {},
            ['kind', 'from → to', 'point', 'status', 'handoff'].map((name) => html('th', { text: name })),
          ),
        ]),
        html('tbody', {}, rows),
      ]),
    );
  }
  byId('lineage').replaceChildren(...children);
}

export function setStatus(text: string, kind = 'info'): void {
  const status = byId('status');
  status.textContent = text;
  status.dataset.kind = kind;
  status.hidden = !text;
}
