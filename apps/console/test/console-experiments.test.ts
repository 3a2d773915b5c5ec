/**
 * The console's experiments page in real Chromium against the real companion (demo shop): a
 * merchandiser tests "trending" against "popular" on the home page widget, shoppers are served and
 * buy, the per-variant table agrees with a hand count, and the winner is applied with one click.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { drawAbTestVariationForUser } from '@attraqt/ab-test';
import { createLogger } from '@discovery-kit/server';
import { startCompanion, type RunningCompanion } from '../../companion/src/companion.js';
import { DEMO_CONFIG } from '../../companion/src/options.js';
import { buildConsole } from '../../../scripts/build-sdk.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('console experiments page in Chromium', () => {
  let dir: string;
  let companion: RunningCompanion;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  const statusOf = async (kind: 'saved' | 'failed') => {
    await page.waitForSelector(`main [role="status"][data-state="${kind}"]`, { timeout: 10_000 });
    return page.$eval('main [role="status"]', (el) => el.textContent ?? '');
  };
  const axeSerious = async (): Promise<string[]> => {
    await page.evaluate(`${AXE};undefined`);
    const found = (await page.evaluate(async () => (await (window as unknown as { axe: { run: (c: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null }> }> } }).axe.run(document)).violations)) as Array<{ id: string; impact: string | null }>;
    return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  };
  const collect = async (sessionId: string, activity: Record<string, unknown>) => {
    const res = await fetch(`${companion.url}/collect/demo-tracker-key`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { sessionId }, ...activity }) });
    assert.ok(res.status < 300, await res.text());
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'discovery-console-x-'));
    await buildConsole(join(dir, 'console'));
    companion = await startCompanion(
      { configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), demo: true, demoActivities: false, logLevel: 'silent', sdkDir: join(dir, 'sdk') },
      createLogger('silent'),
    );
    browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${companion.url}/console/#experiments`);
    await page.waitForSelector('#tenant');
    await page.type('#tenant', 'demo-shop');
    await page.type('#username', 'merchandiser');
    await page.type('#password', 'discovery-demo');
    await page.click('main.sign-in button[type="submit"]');
    await page.waitForSelector('dk-experiments-page form.experiment-form', { timeout: 10_000 });
  });

  after(async () => {
    await browser?.close();
    await companion?.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a test of trending against popular on the home widget, editing variant b as the widgets page does, and starts it', async () => {
    assert.deepEqual(await axeSerious(), [], 'empty experiments page');
    await page.type('#x-id', 'home-trending');
    await page.type('#x-name', 'Trending against popular');
    await page.select('#x-surface', 'widget:demo-popular');
    // Variant b starts as the widget (popular); trending is added and popular removed, as on the widgets page.
    await page.waitForSelector('form.experiment-form .strategies li[data-strategy="popular"]');
    await page.select('#add-strategy', 'trending');
    await page.click('form.experiment-form [data-add-strategy]');
    await page.click('form.experiment-form button[aria-label="Remove popular"]');
    assert.deepEqual(await page.$$eval('form.experiment-form .strategies li', (items) => items.map((li) => li.getAttribute('data-strategy'))), ['trending']);
    await page.click('form.experiment-form button[type="submit"]');
    assert.match(await statusOf('saved'), /home-trending saved as a draft/);
    await (await page.waitForSelector('button[data-action="start"]'))!.click();
    assert.match(await statusOf('saved'), /started/);
    await page.waitForFunction(() => document.querySelector('[data-status]')?.textContent === 'running');
  });

  it('fills the per-variant table as shoppers are served and buy, agreeing with a hand count, and says the verdict in words', async () => {
    const ab = { id: 'home-trending', variations: [{ id: 'control', weight: 50 }, { id: 'b', weight: 50 }] };
    const hand: Record<string, { users: number; conversions: number }> = { control: { users: 0, conversions: 0 }, b: { users: 0, conversions: 0 } };
    for (let i = 0; i < 10; i++) {
      const shopper = `console-shopper-${i}`;
      const res = await fetch(`${companion.url}/widget/demo-popular/recommendations/${shopper}`);
      const body = (await res.json()) as { id: string; experiment?: { variant: string }; recommendations: Array<{ product: { _id: { original_id: string } } }> };
      const variant = drawAbTestVariationForUser(shopper, ab).variationId;
      assert.equal(body.experiment?.variant, variant);
      hand[variant]!.users++;
      const product = body.recommendations[0]!.product._id.original_id;
      await collect(shopper, { action: 'click', target: { product }, sourceId: body.id });
      if (i % 3 === 0) {
        await collect(shopper, { action: 'purchase', target: { product }, metadata: { price: 1250, quantity: 1, orderId: `order-${i}` } });
        hand[variant]!.conversions++;
      }
    }
    await (await page.waitForSelector('button[data-action="refresh"]'))!.click();
    await page.waitForFunction(
      (expected) => Object.entries(expected).every(([variant, counts]) => document.querySelector(`tr[data-variant="${variant}"] [data-users]`)?.textContent === String(counts.users)),
      { timeout: 10_000, polling: 200 },
      hand,
    );
    for (const [variant, counts] of Object.entries(hand)) {
      const conversions = await page.$eval(`tr[data-variant="${variant}"] [data-conversions]`, (el) => el.getAttribute('data-conversions'));
      assert.equal(conversions, String(counts.conversions), `${variant} conversions`);
    }
    assert.match(await page.$eval('[data-verdict]', (el) => el.textContent ?? ''), /^b converts \d+\.\d points (better|worse).*lift\.$/);
    const chart = await page.$eval('[data-chart="experiment-b"] svg', (el) => el.getAttribute('aria-label') ?? '');
    const expected = hand.b!.users === 0 ? 0 : (100 * hand.b!.conversions) / hand.b!.users;
    assert.match(chart, new RegExp(`^conversion rate so far, by day, b\\. \\d{4}-\\d\\d-\\d\\d: ${expected.toFixed(1).replace('.', '\\.')}%`));
    assert.deepEqual(await axeSerious(), [], 'experiments page with results');
  });

  it('applies the winner with one click once stopped, and the widget serves it', async () => {
    await (await page.waitForSelector('button[data-action="stop"]'))!.click();
    assert.match(await statusOf('saved'), /stopped/);
    await page.waitForSelector('button[aria-label="Apply variant b"]');
    await page.click('button[aria-label="Apply variant b"]');
    assert.match(await statusOf('saved'), /Variant b applied/);
    assert.deepEqual(companion.server.deps.registry.widget('demo-popular').widget.strategies, ['trending']);
    const served = (await (await fetch(`${companion.url}/widget/demo-popular/recommendations/console-shopper-1`)).json()) as { experiment?: unknown };
    assert.equal(served.experiment, undefined, 'a stopped experiment stamps nothing');
    assert.deepEqual(errors, []);
  });
});
