// The thread index (GET /): the tenant's threads newest first, a page at a time, narrowed by the
// search form (text in the title, id or project; the exact project; a provider), each linking to its
// lineage viewer. It reads only Query.threads of the public API. The form's values live in the
// address (?text=&project=&provider=, beside ?token=), so a search can be linked to and reloaded.
import { byId, html } from './dom.js';
import { count, threadHref, when } from './format.js';
import { GraphQLClient, ViewerError } from './load.js';
import { setStatus } from './page.js';
import { INDEX_PAGE, THREAD_INDEX_QUERY } from './queries.js';
import type { ThreadFilter, ThreadIndexQuery } from './generated/graphql.js';

const FIELDS = ['text', 'project', 'provider'] as const;

type Row = ThreadIndexQuery['threads']['edges'][number]['node'];

function filterFrom(params: URLSearchParams): ThreadFilter {
  const filter: ThreadFilter = {};
  for (const field of FIELDS) {
    const value = params.get(field)?.trim();
    if (value) filter[field] = value;
  }
  return filter;
}

function rowOf(thread: Row, token: string | null): HTMLElement {
  return html('tr', { 'data-thread-id': thread.id }, [
    html('td', {}, [
      html('a', { href: threadHref(thread.id, token), text: thread.title ?? thread.id, class: 'thread-link' }),
      thread.title ? html('div', { class: 'mono muted', text: thread.id }) : null,
    ]),
    html('td', { class: 'mono', text: thread.project ?? '' }),
    html('td', { text: thread.providers.join(', ') }),
    html('td', { class: 'number', text: count(thread.runCount) }),
    html('td', { text: when(thread.lastActivityAt), title: thread.lastActivityAt }),
  ]);
}

/** The pages read so far under one filter: the cursor each started after, so Newer goes back. */
class Index {
  private starts: (string | null)[] = [null];
  private next: string | null = null;

  constructor(
    private readonly client: GraphQLClient,
    private readonly token: string | null,
    private readonly filter: ThreadFilter,
  ) {}

  async show(page: number): Promise<void> {
    const table = byId('threads');
    table.dataset.state = 'loading';
    const after = this.starts[page] ?? null;
    const { threads } = await this.client.request(THREAD_INDEX_QUERY, {
      filter: this.filter,
      first: INDEX_PAGE,
      after,
    });
    this.starts = this.starts.slice(0, page + 1);
    this.next = threads.pageInfo.hasNextPage ? (threads.pageInfo.endCursor ?? null) : null;
    if (this.next) this.starts.push(this.next);
    const rows = threads.edges.map((edge) => rowOf(edge.node, this.token));
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- threads.html holds the table's body
    table.querySelector('tbody')!.replaceChildren(...rows);
    const searched = Object.keys(this.filter).length > 0;
    setStatus(rows.length === 0 ? (searched ? 'No thread matches this search.' : 'No threads yet.') : '');
    (byId('newer') as HTMLButtonElement).disabled = page === 0;
    (byId('older') as HTMLButtonElement).disabled = this.next === null;
    byId('newer').onclick = () => void this.guarded(page - 1);
    byId('older').onclick = () => void this.guarded(page + 1);
    byId('page-number').textContent = `Page ${page + 1}`;
    table.dataset.state = 'ready';
    table.dataset.page = String(page + 1);
  }

  async guarded(page: number): Promise<void> {
    try {
      await this.show(page);
    } catch (error) {
      setStatus(
        error instanceof ViewerError ? error.message : `Unexpected error: ${(error as Error).message}`,
        'error',
      );
      byId('threads').dataset.state = 'error';
    }
  }
}

function start(): void {
  const params = new URLSearchParams(location.search);
  const token = params.get('token') || null;
  const client = new GraphQLClient(new URL('/graphql', location.href).href, token);
  const form = byId('search') as HTMLFormElement;
  for (const field of FIELDS) (byId(field) as HTMLInputElement).value = params.get(field) ?? '';
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (token) next.set('token', token);
    for (const field of FIELDS) {
      const value = (byId(field) as HTMLInputElement).value.trim();
      if (value) next.set(field, value);
    }
    const query = next.toString();
    history.replaceState(null, '', query ? `/?${query}` : '/');
    void new Index(client, token, filterFrom(next)).guarded(0);
  });
  void new Index(client, token, filterFrom(params)).guarded(0);
}

start();
