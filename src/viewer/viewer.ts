// Threadline lineage viewer, the page's entry. Reads one thread through the public GraphQL API and
// draws it as people think of it: runs left to right by ordinal, one lane per provider thread,
// handoffs as bands over the runs they cover in the lane they were delivered to, forks, subagents and
// merge-backs as branches below.
//
// A thread may hold 100,000 runs, so the page never reads all of them: it opens on a window of the
// newest runs with the handoffs and transfers made for them, "Load earlier runs" reads the window
// before it, and the long texts (messages, facts, reasons, summaries) are read for the one run or
// handoff clicked, cut to what its panel shows. The first paint costs the same however long the thread is.
//
// While the page is open it follows the thread (live.ts): each change reads the newest window again
// and redraws it, as opening the page afresh would.
//
// The modules: queries.ts (the documents), load.ts and live.ts (reading), layout.ts (what goes where,
// pure), draw.ts, panels.ts and page.ts (the DOM). What changes while the page lives is held here, in Viewer.
import { byId } from './dom.js';
import { draw, drawLegend, Palette } from './draw.js';
import { model, type Loaded, type Model } from './layout.js';
import { followThread } from './live.js';
import { Details, GraphQLClient, ViewerError, loadEarlierRuns, loadThread } from './load.js';
import { SidePanel } from './panels.js';
import { LOAD_EARLIER, renderHeader, renderLineage, renderWindowBar, setStatus } from './page.js';

function errorText(error: unknown): string {
  return error instanceof ViewerError ? error.message : `Unexpected error: ${(error as Error).message}`;
}

/** One thread's page: what was read of it, and the model drawn from that. */
class Viewer {
  private readonly palette = new Palette();
  private readonly panel: SidePanel;
  private drawn: Model;
  /** A reload in flight, and whether another change came while it ran. */
  private reloading: Promise<void> | null = null;
  private changedAgain = false;

  constructor(
    private readonly client: GraphQLClient,
    private readonly token: string | null,
    private loaded: Loaded,
  ) {
    this.drawn = model(loaded);
    this.panel = new SidePanel(new Details(client), token, () => this.drawn);
  }

  render(reveal: number | null = null): void {
    this.drawn = model(this.loaded);
    setStatus('');
    renderHeader(this.loaded, this.drawn, this.token);
    renderWindowBar(this.loaded, (button) => void this.loadEarlier(button));
    drawLegend(this.drawn, this.palette);
    this.redraw(reveal);
    renderLineage(this.loaded, this.drawn, this.panel, this.token);
  }

  /** Draws the current model again, as after the window was resized. */
  redraw(reveal: number | null = null): void {
    draw(this.drawn, this.palette, this.panel, this.token, reveal);
  }

  /** The thread changed: read its newest window again, once for a burst of changes. */
  refresh(): void {
    if (this.reloading) {
      this.changedAgain = true;
      return;
    }
    this.reloading = (async () => {
      try {
        const fresh = await loadThread(this.client, this.loaded.thread.id);
        if (!fresh) throw new ViewerError(`The thread ${this.loaded.thread.id} is no longer there.`);
        this.loaded = fresh;
        this.render();
      } catch (error) {
        setStatus(errorText(error), 'error');
      } finally {
        this.reloading = null;
      }
      if (this.changedAgain) {
        this.changedAgain = false;
        this.refresh();
      }
    })();
  }

  private async loadEarlier(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    button.textContent = 'Loading earlier runs…';
    const previousFrom = this.drawn.from;
    try {
      this.loaded = await loadEarlierRuns(this.client, this.loaded);
      this.render(previousFrom);
    } catch (error) {
      setStatus(errorText(error), 'error');
      button.disabled = false;
      button.textContent = LOAD_EARLIER;
    }
  }
}

async function start(): Promise<void> {
  const token = new URLSearchParams(location.search).get('token') || null;
  const threadId = decodeURIComponent(location.pathname.replace(/^\/lineage\//, '').replace(/\/+$/, ''));
  const drawing = byId('drawing');
  if (!threadId) {
    setStatus('No thread id in the address: open /lineage/<threadId>.', 'error');
    drawing.dataset.state = 'error';
    return;
  }
  try {
    const endpoint = new URL('/graphql', location.href).href;
    const client = new GraphQLClient(endpoint, token);
    const loaded = await loadThread(client, threadId);
    if (!loaded) {
      byId('title').textContent = 'Thread not found';
      setStatus(`No thread "${threadId}" for this tenant.`, 'error');
      drawing.dataset.state = 'not-found';
      return;
    }
    const viewer = new Viewer(client, token, loaded);
    viewer.render();
    const following = followThread(endpoint, token, threadId, loaded.thread.changeSequence, {
      changed: () => viewer.refresh(),
      trouble: (message) => setStatus(message ?? '', message === null ? 'info' : 'error'),
    });
    window.addEventListener('pagehide', () => following.stop());
    let timer: ReturnType<typeof setTimeout> | undefined;
    window.addEventListener('resize', () => {
      clearTimeout(timer);
      timer = setTimeout(() => viewer.redraw(), 150);
    });
  } catch (error) {
    byId('title').textContent = 'Cannot draw this thread';
    setStatus(errorText(error), 'error');
    drawing.dataset.state = 'error';
  }
}

void start();
