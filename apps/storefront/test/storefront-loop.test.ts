/**
 * The whole loop a newcomer sees on `npm run dev`, in real Chromium against the real companion with
 * a freshly built bundle: a product page records a view through the one script tag, recommendations
 * render, the basket records add-to-cart, checkout records one purchase per product through the data
 * layer, search results render from the URL, and "Recently viewed" on the home page changes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { createLogger } from '@discovery-kit/server';
import { startCompanion, type RunningCompanion } from '../../companion/src/companion.js';
import { DEMO_CONFIG } from '../../companion/src/options.js';
import { buildSdk } from '../../../scripts/build-sdk.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

interface LoggedActivity {
  verb: string;
  originalId: string;
}

describe('demo storefront loop in Chromium', () => {
  let dir: string;
  let companion: RunningCompanion;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: npm test installs it (scripts/ensure-chromium.mjs), or set CHROME_PATH.`);
    dir = await mkdtemp(join(tmpdir(), 'discovery-loop-'));
    const sdkDir = join(dir, 'sdk');
    await buildSdk(sdkDir);
    companion = await startCompanion(
      { configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), demo: true, demoActivities: false, logLevel: 'silent', sdkDir },
      createLogger('silent'),
    );
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(`uncaught: ${String(error)}`));
    // Blocked scripts (CSP), failed loads and the elements' own error logs all land here.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await companion?.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const url = (path: string) => `${companion.url}${path}`;

  async function profileId(): Promise<string> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const cookie = (await browser.cookies()).find((c) => c.name === 'dk_pid');
      if (cookie !== undefined) return cookie.value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the tracker set no dk_pid cookie');
  }

  async function activities(pid: string): Promise<LoggedActivity[]> {
    const res = await fetch(url(`/tracker/demo-tracker-key/profiles/${pid}/activities?page[size]=100`));
    if (res.status === 404) return [];
    return ((await res.json()) as { data: LoggedActivity[] }).data;
  }

  async function until(pid: string, what: string, done: (list: LoggedActivity[]) => boolean): Promise<LoggedActivity[]> {
    const deadline = Date.now() + 10_000;
    let list: LoggedActivity[] = [];
    while (Date.now() < deadline) {
      list = await activities(pid);
      if (done(list)) return list;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`${what} did not arrive; the profile has ${JSON.stringify(list)}`);
  }

  /** Text of the product cards an element rendered in its shadow root. */
  async function cardTitles(selector: string): Promise<string[]> {
    await page.waitForFunction(
      (s) => {
        const root = document.querySelector(s)?.shadowRoot;
        return root !== null && root !== undefined && root.querySelectorAll('[part~="card"]').length > 0;
      },
      { timeout: 10_000 },
      selector,
    );
    return page.$eval(selector, (el) => [...el.shadowRoot!.querySelectorAll('[part~="title"]')].map((t) => t.textContent?.trim() ?? ''));
  }

  it('records a product view and renders recommendations on the product page', async () => {
    await page.goto(url('/shop/product.html?id=84029'));
    const similar = await cardTitles('discovery-recommendations[widget-id="demo-similar"]');
    assert.ok(similar.length >= 4, `similar items: ${similar.join(' | ')}`);
    const pid = await profileId();
    await until(pid, 'the view of 84029', (list) => list.some((a) => a.verb === 'view' && a.originalId === '84029'));
  });

  it('records add-to-cart from the button and one purchase per product at checkout', async () => {
    const pid = await profileId();
    await page.click('button[data-discovery-add-to-cart]');
    await until(pid, 'the add-to-cart', (list) => list.some((a) => a.verb === 'add-to-cart' && a.originalId === '84029'));
    await page.goto(url('/shop/product.html?id=85123A'));
    await page.click('button[data-discovery-add-to-cart]');
    await page.goto(url('/shop/checkout.html'));
    await page.type('input[name="name"]', 'Ada Shopper');
    await page.type('input[name="email"]', 'ada@example.com');
    await page.click('form[data-checkout-form] button[type="submit"]');
    await page.waitForSelector('[data-order-done]:not([hidden])');
    const list = await until(pid, 'both purchases', (l) => ['84029', '85123A'].every((id) => l.some((a) => a.verb === 'purchase' && a.originalId === id)));
    assert.equal(list.filter((a) => a.verb === 'purchase').length, 2, 'one purchase per product, counted once');
    assert.equal(list.filter((a) => a.verb === 'click').length, 0, 'the basket button is not also a product click');
  });

  it('records a click on a recommended product, and the click leads to its page', async () => {
    const pid = await profileId();
    await page.goto(url('/shop/product.html?id=84029'));
    await cardTitles('discovery-recommendations[widget-id="demo-similar"]');
    const target = await page.$eval('discovery-recommendations[widget-id="demo-similar"]', (el) => el.shadowRoot!.querySelector<HTMLAnchorElement>('a[part~="card"]')!.href);
    const clickedId = new URL(target).searchParams.get('id')!;
    await Promise.all([
      page.waitForNavigation(),
      page.$eval('discovery-recommendations[widget-id="demo-similar"]', (el) => el.shadowRoot!.querySelector<HTMLAnchorElement>('a[part~="card"]')!.click()),
    ]);
    assert.equal(new URL(page.url()).searchParams.get('id'), clickedId);
    // Sent as the page unloads (beacon) or from the queue on the next page: either way it arrives once.
    await until(pid, `the click on ${clickedId}`, (l) => l.some((a) => a.verb === 'click' && a.originalId === clickedId));
  });

  it('shows search results bound to the URL', async () => {
    await page.goto(url('/shop/search.html?q=heart'));
    await page.waitForFunction(() => (document.querySelector('discovery-search-results')?.shadowRoot?.textContent ?? '').toLowerCase().includes('heart'), { timeout: 10_000 });
  });

  it('changes the home page: the viewed products appear under "Recently viewed"', async () => {
    await page.goto(url('/shop/'));
    const recent = await cardTitles('discovery-recommendations[widget-id="demo-recently-viewed"]');
    assert.ok(recent.some((title) => /hot water bottle/i.test(title)), `recently viewed: ${recent.join(' | ')}`);
  });

  it('ran every page without an error in the console', () => {
    assert.deepEqual(problems, []);
  });
});
