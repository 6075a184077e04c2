// The lineage viewer (GET /lineage/:threadId) in a real headless browser: Debian's chromium driven by
// playwright-core, on the design example seeded through GraphQL. Writes a screenshot to test-output/
// (copy it to docs/images/ when the viewer's look changes on purpose).
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { seedDesignExample, viewerUrl } from '../../tools/demo.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOT = join(projectRoot(), 'test-output', 'viewer-design-example.png');
const API_KEY = 'viewer-test-key-0123456789';

let t: TestService;
let secured: TestService;
let browser: Promise<Browser> | undefined;

beforeAll(async () => {
  t = await startTestService();
  secured = await startTestService({ THREADLINE_API_KEYS: `${API_KEY}=viewer_tenant` });
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
      throw new Error(`Chromium is missing (no ${CHROMIUM}): the viewer test needs a real browser. Install Debian's with \`apt-get install chromium\` (.ci/run does), or set CHROMIUM_PATH.`);
    }
    return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  })();
  return browser;
}

interface OpenedPage {
  page: Page;
  /** Every URL the page asked for, and what went wrong in it. */
  requests: string[];
  errors: string[];
}

async function open(url: string): Promise<OpenedPage> {
  const page = await (await launchBrowser()).newPage({ viewport: { width: 1440, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(url);
  await page.waitForSelector('#drawing[data-state="ready"], #drawing[data-state="error"], #drawing[data-state="not-found"]', { timeout: 20_000 });
  return { page, requests, errors };
}

describe('GET /lineage/:threadId', () => {
  it('draws the design example: two lanes, H1 over 1-5 into L1, H2 over 6-8 into C1, run 9 back on C1; H1 shows its summary on click', async () => {
    const threadId = uniqueId('viewer');
    const { c1, l1, h1, h2 } = await seedDesignExample((query, variables) => t.ok(query, variables), threadId);
    const handoffs = (await t.ok(`query($id: ID!) { thread(id: $id) { handoffs { id summaryText } } }`, { id: threadId })).thread.handoffs;
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
      expect(await page.locator(`[data-run="${ordinal}"]`).getAttribute('data-lane-of'), `run ${ordinal}`).toBe(ordinal >= 6 && ordinal <= 8 ? l1 : c1);
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
    expect(h1Box.x + h1Box.width).toBeGreaterThanOrEqual((await box('[data-run="5"]')).x + (await box('[data-run="5"]')).width - 1);
    expect(h1Box.x + h1Box.width).toBeLessThan((await box('[data-run="6"]')).x);

    // A run's plan on click.
    await page.locator('[data-run="9"]').click();
    expect(await page.locator('#details').getAttribute('data-kind')).toBe('run');
    const runPanel = await page.locator('#details').textContent();
    expect(runPanel).toContain('DELTA_HANDOFF');
    expect(runPanel).toContain('is resumed with a delta covering runs 6-8, which it missed.');

    // H1's summary on click, in the side panel.
    await band1.click();
    expect(await page.locator('#details').getAttribute('data-kind')).toBe('handoff');
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

  it('passes ?token= through as a bearer token, and says what is wrong without one or for an unknown thread', async () => {
    const threadId = uniqueId('viewer-secured');
    const gql = (query: string, variables?: Record<string, unknown>) => secured.ok(query, variables, API_KEY);
    await gql(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, { input: { id: threadId, title: 'secured' } });
    const run = (await gql(`mutation($input: StartRunInput!) { startRun(input: $input) { run { id providerThread { id } } } }`, { input: { threadId, provider: 'claude', userMessage: 'hello' } })).startRun.run;
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

    const missing = await open(`${viewerUrl(secured.service.url, 'no-such-thread')}?token=${encodeURIComponent(API_KEY)}`);
    expect(await missing.page.locator('#drawing').getAttribute('data-state')).toBe('not-found');
    await missing.page.close();
  });

  it('serves its assets from the project root, with a strict content security policy', async () => {
    const origin = new URL(t.service.url).origin;
    const page = await fetch(`${origin}/lineage/some-thread`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('/lineage/assets/viewer.js');
    for (const asset of ['viewer.js', 'viewer.css']) expect((await fetch(`${origin}/lineage/assets/${asset}`)).status).toBe(200);
    expect((await fetch(`${origin}/lineage/assets/nothing-here.js`)).status).toBe(404);
  });
});
