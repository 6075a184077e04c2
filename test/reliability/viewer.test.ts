// The lineage viewer (GET /lineage/:threadId) and the thread index (GET /) in a real headless browser: Debian's chromium driven by
// playwright-core, on the design example seeded through GraphQL, and on a thread longer than the
// viewer's window. Writes a screenshot to test-output/ (copy it to docs/images/ when the viewer's look
// changes on purpose). test/globalSetup.ts compiles the viewer's modules first, so that the page serves
// the TypeScript of this tree.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { seedDesignExample, viewerUrl } from '../../tools/demo.js';
import { createThread, runTurns } from '../support/lineage.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { SINGLE_TENANT } from '../../src/config.js';
import { fileTenant } from '../support/tenants.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOT = join(projectRoot(), 'test-output', 'viewer-design-example.png');
const API_KEY = 'viewer-test-key-0123456789';

let t: TestService;
let secured: TestService;
let browser: Promise<Browser> | undefined;

beforeAll(async () => {
  // Opened as on a reader's own machine, without a token: a service without keys, writing under 'local'.
  t = await startTestService({}, { tenant: SINGLE_TENANT });
  secured = await startTestService({ THREADLINE_API_KEYS: `${API_KEY}=${fileTenant('secured')}` });
});
afterAll(async () => {
  await (await browser?.catch(() => undefined))?.close();
  await t?.close();
  await secured?.close();
});

/** The one browser of this file; a machine without Chromium fails here, saying what to install. */
function launchBrowser(): Promise<Browser> {
  browser ??= (async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is missing (no ${CHROMIUM}): the viewer test needs a real browser. Install Debian's with \`apt-get install chromium\` (.ci/run does), or set CHROMIUM_PATH.`,
      );
    }
    return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  })();
  return browser;
}

interface GraphQLExchange {
  query: string;
  variables: Record<string, any>;
  /** The answer's body as sent, and parsed. */
  text: string;
  data: Record<string, any>;
}

interface OpenedPage {
  page: Page;
  /** Every URL the page asked for, and what went wrong in it. */
  requests: string[];
  errors: string[];
  /** The GraphQL requests answered so far, in the order they were sent. */
  graphql: () => Promise<GraphQLExchange[]>;
}

const VIEWER_SETTLED = '#drawing[data-state="ready"], #drawing[data-state="error"], #drawing[data-state="not-found"]';

/** Opens `url` in a new page and waits for `settled`; `prepare` runs on the page before it loads. */
async function open(
  url: string,
  prepare?: (page: Page) => Promise<void>,
  settled = VIEWER_SETTLED,
): Promise<OpenedPage> {
  const page = await (await launchBrowser()).newPage({ viewport: { width: 1440, height: 900 } });
  await prepare?.(page);
  const requests: string[] = [];
  const errors: string[] = [];
  const exchanges: Promise<GraphQLExchange>[] = [];
  page.on('request', (request) => {
    requests.push(request.url());
    if (!request.url().endsWith('/graphql')) return;
    const { query, variables } = request.postDataJSON() as { query: string; variables: Record<string, any> };
    exchanges.push(
      request.response().then(async (response) => {
        const text = await response!.text();
        return { query, variables, text, data: JSON.parse(text).data };
      }),
    );
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(url);
  await page.waitForSelector(settled, { timeout: 20_000 });
  return { page, requests, errors, graphql: () => Promise.all(exchanges) };
}

/** GraphQL on the service with API keys, as its one tenant. */
const securedOk = (query: string, variables?: Record<string, unknown>) => secured.ok(query, variables, API_KEY);

/** A thread of the secured service whose first run (claude) is still running. */
async function securedThreadWithRun(
  prefix: string,
): Promise<{ threadId: string; run: { id: string; providerThread: { id: string } } }> {
  const threadId = uniqueId(prefix);
  await securedOk(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, {
    input: { id: threadId, title: prefix },
  });
  const started = await securedOk(
    `mutation($input: StartRunInput!) { startRun(input: $input) { run { id providerThread { id } } } }`,
    {
      input: { threadId, provider: 'claude', userMessage: 'hello' },
    },
  );
  return { threadId, run: started.startRun.run };
}

/** Waits for the side panel to show what was clicked, read in full. */
async function panelReady(page: Page, kind: string) {
  await page.waitForSelector(`#details[data-kind="${kind}"][data-state="ready"]`, { timeout: 20_000 });
}

describe('GET /lineage/:threadId', () => {
  it('draws the design example: two lanes, H1 over 1-5 into L1, H2 over 6-8 into C1, run 9 back on C1; H1 shows its summary on click', async () => {
    const threadId = uniqueId('viewer');
    const { c1, l1, h1, h2 } = await seedDesignExample(t.client, threadId);
    const handoffs = (
      await t.ok(`query($id: ID!) { thread(id: $id) { handoffs { id summaryText } } }`, { id: threadId })
    ).thread.handoffs;
    const h1Summary: string = handoffs.find((handoff: { id: string }) => handoff.id === h1).summaryText;

    const { page, requests, errors } = await open(viewerUrl(t.service.url, threadId));
    expect(await page.locator('#drawing').getAttribute('data-state')).toBe('ready');

    // Two lanes, in creation order: C1 (codex) then L1 (claude).
    const lanes = page.locator('[data-lane]');
    expect(await lanes.count()).toBe(2);
    expect(await lanes.nth(0).getAttribute('data-lane')).toBe(c1);
    expect(await lanes.nth(1).getAttribute('data-lane')).toBe(l1);
    expect(await lanes.nth(0).getAttribute('data-provider')).toBe('codex');
    expect(await lanes.nth(1).getAttribute('data-provider')).toBe('claude');
    expect(await page.locator(`[data-lane-label="${c1}"]`).textContent()).toMatch(/^codex#1pt_/);
    expect(await page.locator(`[data-lane-label="${l1}"]`).textContent()).toMatch(/^claude#2pt_/);

    // Runs left to right, each in the lane of the provider thread that served it; 9 is back on C1.
    expect(await page.locator('[data-run]').count()).toBe(9);
    for (let ordinal = 1; ordinal <= 9; ordinal++) {
      expect(await page.locator(`[data-run="${ordinal}"]`).getAttribute('data-lane-of'), `run ${ordinal}`).toBe(
        ordinal >= 6 && ordinal <= 8 ? l1 : c1,
      );
    }
    expect(await lanes.nth(0).locator('[data-run="9"]').count()).toBe(1);
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    expect((await box('[data-run="9"]')).x).toBeGreaterThan((await box('[data-run="8"]')).x);
    expect((await box('[data-run="6"]')).x).toBeGreaterThan((await box('[data-run="5"]')).x);

    // The two handoffs: over the runs they cover, drawn into the lane they were delivered to.
    expect(await page.locator('[data-handoff]').count()).toBe(2);
    const band1 = page.locator(`[data-handoff="${h1}"]`);
    const band2 = page.locator(`[data-handoff="${h2}"]`);
    expect(await band1.getAttribute('data-covers')).toBe('1-5');
    expect(await band1.getAttribute('data-into')).toBe(l1);
    expect(await band2.getAttribute('data-covers')).toBe('6-8');
    expect(await band2.getAttribute('data-into')).toBe(c1);
    expect(await page.locator(`[data-lane="${l1}"] [data-handoff="${h1}"]`).count()).toBe(1);
    expect(await page.locator(`[data-lane="${c1}"] [data-handoff="${h2}"]`).count()).toBe(1);
    const h1Box = await box(`[data-handoff="${h1}"]`);
    expect(h1Box.x).toBeLessThanOrEqual((await box('[data-run="1"]')).x + 1);
    expect(h1Box.x + h1Box.width).toBeGreaterThanOrEqual(
      (await box('[data-run="5"]')).x + (await box('[data-run="5"]')).width - 1,
    );
    expect(h1Box.x + h1Box.width).toBeLessThan((await box('[data-run="6"]')).x);

    // A run's plan on click.
    await page.locator('[data-run="9"]').click();
    await panelReady(page, 'run');
    const runPanel = await page.locator('#details').textContent();
    expect(runPanel).toContain('DELTA_HANDOFF');
    expect(runPanel).toContain('is resumed with a delta covering runs 6-8, which it missed.');

    // H1's summary on click, in the side panel.
    await band1.click();
    await panelReady(page, 'handoff');
    expect(await page.locator('#details pre.summary').textContent()).toBe(h1Summary);
    expect(h1Summary).toContain('Covers runs 1-5');

    // Only the service itself was asked for anything: the page, its assets and /graphql.
    const origin = new URL(t.service.url).origin;
    expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(requests).toContain(`${origin}/graphql`);
    expect(errors).toEqual([]);

    mkdirSync(join(projectRoot(), 'test-output'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
    await page.close();
  }, 120_000);

  it('opens a long thread on its newest 200 runs, without reading the rest, and loads earlier runs on demand', async () => {
    // Codex 1-30, claude 31-40 (full summary of 1-30), codex 41-100 (delta of 31-40), claude 101-150 and
    // codex 151-260, each on a new provider thread with a full summary (stale after 50+ runs elsewhere).
    const threadId = await createThread(t, 'a long thread');
    for (const [provider, runs] of [
      ['codex', 30],
      ['claude', 10],
      ['codex', 60],
      ['claude', 50],
      ['codex', 110],
    ] as const)
      await runTurns(t, threadId, provider, runs);
    const all = (
      await t.ok(`query($id: ID!) { thread(id: $id) { handoffs { id coveredRunOrdinals { from to } } } }`, {
        id: threadId,
      })
    ).thread.handoffs;
    expect(all.map((handoff: { coveredRunOrdinals: unknown }) => handoff.coveredRunOrdinals)).toEqual([
      { from: 1, to: 30 },
      { from: 31, to: 40 },
      { from: 1, to: 100 },
      { from: 1, to: 150 },
    ]);
    const [h31, h41, h101, h151] = all.map((handoff: { id: string }) => handoff.id);

    const { page, graphql, errors } = await open(viewerUrl(t.service.url, threadId));
    expect(await page.locator('#drawing').getAttribute('data-state')).toBe('ready');

    // The newest window only: runs 61-260, the handoffs made for them, the earlier runs a click away.
    expect(await page.locator('[data-run]').count()).toBe(200);
    expect(await page.locator('[data-run="61"]').count()).toBe(1);
    expect(await page.locator('[data-run="60"]').count()).toBe(0);
    expect(await page.locator('#window-range').textContent()).toBe('runs 61–260 of 260');
    expect(await page.locator('#window').textContent()).toContain('60 earlier runs are not read yet');
    expect(await page.locator('#load-earlier').isVisible()).toBe(true);
    // Lanes of the provider threads that served the window (codex 1, claude 2, codex 3); claude's first
    // one, which served runs 31-40 only, waits for the earlier runs.
    expect(await page.locator('[data-lane]').count()).toBe(3);
    expect(await page.locator('[data-handoff]').count()).toBe(2);
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    for (const [id, covers] of [
      [h101, '1-100'],
      [h151, '1-150'],
    ]) {
      const band = page.locator(`[data-handoff="${id}"]`);
      expect(await band.getAttribute('data-covers')).toBe(covers);
      expect(await band.getAttribute('data-clipped')).toBe('left');
      expect((await box(`[data-handoff="${id}"]`)).x).toBeLessThanOrEqual((await box('[data-run="61"]')).x);
    }

    mkdirSync(join(projectRoot(), 'test-output'), { recursive: true });
    await page.screenshot({ path: join(projectRoot(), 'test-output', 'viewer-long-thread.png') });

    // Two requests: the thread with its newest 200 runs (read backwards, no paging through the
    // thread), then the handoffs and transfers of those runs. No long texts.
    const firstPaint = await graphql();
    expect(firstPaint).toHaveLength(2);
    expect(firstPaint[0]!.query).toMatch(/runs\(last: \$last\)/);
    expect(firstPaint[0]!.variables).toEqual({ id: threadId, last: 200 });
    expect(firstPaint[0]!.data.thread.runs.edges).toHaveLength(200);
    expect(firstPaint[1]!.variables).toEqual({ id: threadId, from: 61, to: 261 });
    expect(firstPaint[1]!.data.thread.handoffs.map((handoff: { id: string }) => handoff.id)).toEqual([h101, h151]);
    for (const exchange of firstPaint) {
      expect(exchange.query).not.toMatch(
        /runs\(first|after:|userMessage|assistantMessage|summaryText|facts|reasons|nativeRunOrdinals|missingRunOrdinals/,
      );
    }

    // Earlier runs on demand: the 60 before the window, with the handoffs made for them.
    await page.locator('#load-earlier').click();
    await page.waitForSelector('[data-run="1"]', { timeout: 20_000 });
    expect(await page.locator('[data-run]').count()).toBe(260);
    expect(await page.locator('#window-range').textContent()).toBe('runs 1–260 of 260');
    expect(await page.locator('#load-earlier').count()).toBe(0);
    expect(await page.locator('[data-lane]').count()).toBe(4);
    expect(await page.locator('[data-handoff]').count()).toBe(4);
    expect(await page.locator(`[data-handoff="${h31}"]`).getAttribute('data-covers')).toBe('1-30');
    expect(await page.locator(`[data-handoff="${h41}"]`).getAttribute('data-covers')).toBe('31-40');
    expect(await page.locator(`[data-handoff="${h101}"]`).getAttribute('data-clipped')).toBeNull();
    expect((await box(`[data-handoff="${h101}"]`)).x).toBeLessThanOrEqual((await box('[data-run="1"]')).x + 1);
    const earlier = (await graphql()).slice(2);
    expect(earlier.map((exchange) => exchange.variables)).toEqual([
      { id: threadId, last: 200, before: firstPaint[0]!.data.thread.runs.pageInfo.startCursor },
      { id: threadId, from: 1, to: 60 },
    ]);
    expect(earlier[0]!.data.thread.runs.edges).toHaveLength(60);

    // A run's messages and reasons are read when it is clicked.
    await page.locator('[data-run="101"]').click();
    await panelReady(page, 'run');
    expect(await page.locator('#details').textContent()).toContain('message for claude');
    expect(await page.locator('#details').textContent()).toContain('FULL_HANDOFF_NEW');
    expect((await graphql()).at(-1)!.query).toContain('userMessage');
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('passes ?token= through as a bearer token, and says what is wrong without one or for an unknown thread', async () => {
    const { threadId, run } = await securedThreadWithRun('viewer-secured');
    const url = viewerUrl(secured.service.url, threadId);

    const withToken = await open(`${url}?token=${encodeURIComponent(API_KEY)}`);
    expect(await withToken.page.locator('#drawing').getAttribute('data-state')).toBe('ready');
    expect(await withToken.page.locator('[data-lane]').count()).toBe(1);
    expect(await withToken.page.locator('[data-run="1"]').getAttribute('data-lane-of')).toBe(run.providerThread.id);
    expect(await withToken.page.locator('[data-run="1"]').getAttribute('data-status')).toBe('RUNNING');
    await withToken.page.close();

    const without = await open(url);
    expect(await without.page.locator('#drawing').getAttribute('data-state')).toBe('error');
    expect(await without.page.locator('#status').textContent()).toContain('?token=');
    await without.page.close();

    const missing = await open(
      `${viewerUrl(secured.service.url, 'no-such-thread')}?token=${encodeURIComponent(API_KEY)}`,
    );
    expect(await missing.page.locator('#drawing').getAttribute('data-state')).toBe('not-found');
    await missing.page.close();
  });

  it('follows the thread while open: a change made through the API redraws the page, with the token on the socket too', async () => {
    const { threadId, run: first } = await securedThreadWithRun('viewer-live');
    const { page, errors } = await open(
      `${viewerUrl(secured.service.url, threadId)}?token=${encodeURIComponent(API_KEY)}`,
    );
    expect(await page.locator('[data-run="1"]').getAttribute('data-status')).toBe('RUNNING');

    await securedOk(`mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }`, {
      input: { runId: first.id, assistantMessage: 'done' },
    });
    await page.waitForSelector('[data-run="1"][data-status="COMPLETED"]', { timeout: 20_000 });
    await securedOk(`mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`, {
      input: { threadId, provider: 'codex', userMessage: 'over to codex' },
    });
    await page.waitForSelector('[data-run="2"]', { timeout: 20_000 });
    expect(await page.locator('[data-lane]').count()).toBe(2);
    expect(await page.locator('#status').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reconnects after a lost socket, retrying while the network is down, and misses no change made meanwhile', async () => {
    const { threadId, run: first } = await securedThreadWithRun('viewer-reconnect');
    // Every WebSocket of the page goes through this route: passed on to the service while the network
    // is up, refused at once (closed with 1001, as by a proxy going away) while it is down.
    let networkUp = true;
    let refused = 0;
    const connections: { page: WebSocketRoute; service: WebSocketRoute; subscribedAfter: number[] }[] = [];
    const { page, errors } = await open(
      `${viewerUrl(secured.service.url, threadId)}?token=${encodeURIComponent(API_KEY)}`,
      (page) =>
        page.routeWebSocket(/\/graphql$/, (socket) => {
          if (!networkUp) {
            refused += 1;
            return socket.close({ code: 1001, reason: 'network down' });
          }
          const connection = { page: socket, service: socket.connectToServer(), subscribedAfter: [] as number[] };
          connections.push(connection);
          socket.onMessage((message) => {
            const parsed = JSON.parse(String(message)) as { type: string; payload?: { variables?: { after: number } } };
            if (parsed.type === 'subscribe') connection.subscribedAfter.push(parsed.payload!.variables!.after);
            connection.service.send(message);
          });
        }),
    );
    const until = async (condition: () => boolean) => {
      for (let waited = 0; !condition() && waited < 20_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(condition()).toBe(true);
    };
    await until(() => connections[0]?.subscribedAfter.length === 1);
    const seen = connections[0]!.subscribedAfter[0]!;

    networkUp = false;
    await connections[0]!.page.close({ code: 1001, reason: 'network lost' });
    await connections[0]!.service.close();
    await page.waitForSelector('#status:has-text("reconnecting")', { timeout: 20_000 });
    await securedOk(`mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }`, {
      input: { runId: first.id, assistantMessage: 'done while the page was offline' },
    });
    await until(() => refused >= 1);
    expect(await page.locator('[data-run="1"]').getAttribute('data-status')).toBe('RUNNING');

    networkUp = true;
    await page.waitForSelector('[data-run="1"][data-status="COMPLETED"]', { timeout: 30_000 });
    // It asked again from the last change it had seen, so the one made while it was offline came.
    expect(connections).toHaveLength(2);
    expect(connections[1]!.subscribedAfter).toEqual([seen]);
    await page.waitForSelector('#status', { state: 'hidden', timeout: 20_000 });
    expect(errors.filter((error) => !error.includes('WebSocket'))).toEqual([]);
    await page.close();
  });

  it('serves its assets from the project root, with a strict content security policy', async () => {
    const origin = new URL(t.service.url).origin;
    const page = await fetch(`${origin}/lineage/some-thread`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('/lineage/assets/viewer.js');
    for (const asset of ['viewer.js', 'viewer.css'])
      expect((await fetch(`${origin}/lineage/assets/${asset}`)).status).toBe(200);
    expect((await fetch(`${origin}/lineage/assets/nothing-here.js`)).status).toBe(404);
  });
});

describe('GET /: the thread index', () => {
  const INDEX_SETTLED = '#threads[data-state="ready"], #threads[data-state="error"]';
  const rowIds = (page: Page) =>
    page.locator('#threads tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-thread-id')));
  /** Waits for the table to show page `number` once a click asked for it. */
  const pageShown = (page: Page, number: number) =>
    page.waitForSelector(`#threads[data-state="ready"][data-page="${number}"]`, { timeout: 20_000 });

  it('lists a project’s threads newest first, 25 a page, pages older and back, searches, and links to a thread', async () => {
    const tag = uniqueId('idx');
    const project = `/home/dev/${tag}`;
    const ids: string[] = [];
    for (let index = 0; index < 28; index++) {
      const id = `${tag}-${String(index).padStart(2, '0')}`;
      await securedOk(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, {
        input: { id, title: index === 1 ? `Needle ${tag}` : `thread ${index}`, project },
      });
      ids.push(id);
    }
    const started = await securedOk(`mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`, {
      input: { threadId: ids[1], provider: 'claude', userMessage: 'hello' },
    });
    await securedOk(`mutation($id: ID!) { completeRun(input: { runId: $id, assistantMessage: "done" }) { id } }`, {
      id: started.startRun.run.id,
    });
    const newestFirst = [...ids].reverse();
    const token = encodeURIComponent(API_KEY);
    const origin = new URL(secured.service.url).origin;

    const opened = await open(
      `${origin}/?token=${token}&project=${encodeURIComponent(project)}`,
      undefined,
      INDEX_SETTLED,
    );
    const { page } = opened;
    expect(await page.locator('#threads').getAttribute('data-state')).toBe('ready');
    expect(await page.locator('#project').inputValue()).toBe(project);
    expect(await rowIds(page)).toEqual(newestFirst.slice(0, 25));
    expect(await page.locator('#newer').isDisabled()).toBe(true);

    await page.locator('#older').click();
    await pageShown(page, 2);
    expect(await rowIds(page)).toEqual(newestFirst.slice(25));
    expect(await page.locator('#older').isDisabled()).toBe(true);
    const needle = page.locator(`#threads tr[data-thread-id="${ids[1]}"]`);
    expect(await needle.locator('td').allTextContents()).toEqual([
      `Needle ${tag}${ids[1]}`,
      project,
      'claude',
      '1',
      expect.stringMatching(/\d/),
    ]);
    await page.locator('#newer').click();
    await pageShown(page, 1);
    expect(await rowIds(page)).toEqual(newestFirst.slice(0, 25));

    // A search by text, ignoring case, kept in the address; its row links to the thread's viewer.
    await page.locator('#project').fill('');
    await page.locator('#text').fill(`needle ${tag.toUpperCase()}`);
    await page.locator('#search button[type="submit"]').click();
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([ids[1]]);
    expect(new URL(page.url()).searchParams.get('text')).toBe(`needle ${tag.toUpperCase()}`);
    await page.locator('#text').fill(`nothing-${tag}`);
    await page.locator('#search button[type="submit"]').click();
    await expect.poll(() => rowIds(page), { timeout: 20_000 }).toEqual([]);
    expect(await page.locator('#status').textContent()).toBe('No thread matches this search.');

    await page.goto(`${origin}/?token=${token}&text=${encodeURIComponent(`needle ${tag}`)}`);
    await page.waitForSelector(INDEX_SETTLED);
    const link = page.locator(`#threads tr[data-thread-id="${ids[1]}"] a`);
    expect(await link.getAttribute('href')).toBe(`/lineage/${ids[1]}?token=${token}`);
    await link.click();
    await page.waitForSelector(VIEWER_SETTLED, { timeout: 20_000 });
    expect(await page.locator('#drawing').getAttribute('data-state')).toBe('ready');
    expect(await page.locator('#title').textContent()).toBe(`Needle ${tag}`);
    expect(opened.errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('says a token is needed without one, and serves the index at / and /lineage under the same policy', async () => {
    const origin = new URL(secured.service.url).origin;
    const without = await open(`${origin}/`, undefined, INDEX_SETTLED);
    expect(await without.page.locator('#threads').getAttribute('data-state')).toBe('error');
    expect(await without.page.locator('#status').textContent()).toContain('?token=');
    await without.page.close();
    for (const path of ['/', '/lineage']) {
      const answer = await fetch(`${origin}${path}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await answer.text()).toContain('/lineage/assets/threads.js');
    }
    expect((await fetch(`${origin}/lineage/assets/threads.js`)).status).toBe(200);
  });
});
