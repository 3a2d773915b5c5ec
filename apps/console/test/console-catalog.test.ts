/**
 * The console's catalog page in real Chromium against the real companion (demo shop): a merchandiser
 * sees the versions with their item counts, the last import's errors (a batch with a bad item, sent
 * through the catalog API as an integrator's feed would be), and searches and pages through the items
 * with the keyboard. Checked with axe at 1280×800 and 390×844.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { createTokenProvider } from '@discovery-kit/client';
import { createLogger } from '@discovery-kit/server';
import { startCompanion, type RunningCompanion } from '../../companion/src/companion.js';
import { DEMO_CONFIG } from '../../companion/src/options.js';
import { buildConsole } from '../../../scripts/build-sdk.js';
import { DESKTOP, PHONE, horizontalOverflow } from '../../storefront/test/shop-in-chromium.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

describe('console catalog page in Chromium', () => {
  let dir: string;
  let companion: RunningCompanion;
  let browser: Browser;
  let page: Page;
  let token: string;
  const errors: string[] = [];

  const axeSerious = async (): Promise<string[]> => {
    if ((await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe)) === 'undefined') await page.evaluate(`${AXE};undefined`);
    const found = (await page.evaluate(async () => (await (window as unknown as { axe: { run: (c: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }> }> } }).axe.run(document)).violations)) as Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }>;
    return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  };
  const importItems = async (items: unknown[]) => {
    const res = await fetch(`${companion.url}/catalog/items?tenant=demo-shop&environment=production`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(items) });
    return res.status;
  };
  const range = () => page.$eval('[data-item-range]', (el) => el.textContent ?? '');
  const rows = () => page.$$eval('table.items tbody tr', (trs) => trs.map((tr) => ({ id: tr.getAttribute('data-item')!, title: tr.querySelector('th')?.textContent ?? '', price: tr.children[2]?.textContent ?? '', photo: tr.querySelector('img') !== null })));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'discovery-console-catalog-'));
    await buildConsole(join(dir, 'console'));
    companion = await startCompanion(
      { configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), demo: true, demoActivities: false, logLevel: 'silent', sdkDir: join(dir, 'sdk') },
      createLogger('silent'),
    );
    const key = await readFile(fileURLToPath(new URL('../../companion/demo/keys/demo-service-account.private.pem', import.meta.url)), 'utf8');
    token = await createTokenProvider({ tokenUrl: `${companion.url}/auth/realms/demo-shop/protocol/openid-connect/token`, clientId: 'demo-backoffice', privateKeyPem: key }).getToken();
    browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${companion.url}/console/#catalog`);
    await page.waitForSelector('#tenant');
    await page.type('#tenant', 'demo-shop');
    await page.type('#username', 'analyst');
    await page.type('#password', 'discovery-demo');
    await page.click('main.sign-in button[type="submit"]');
    await page.waitForSelector('dk-catalog-page table.items tbody tr', { timeout: 10_000 });
  });

  after(async () => {
    await browser?.close();
    await companion?.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the versions with their item counts and dates, the active one marked', async () => {
    const demo = JSON.parse(readFileSync(new URL('../../companion/demo/data/catalog.json', import.meta.url), 'utf8')) as Array<{ variants?: unknown[] }>;
    const items = demo.reduce((n, product) => n + 1 + (product.variants?.length ?? 0), 0);
    const version = await page.$eval('tr[data-version="1"]', (tr) => ({ state: tr.children[1]!.textContent, items: tr.querySelector('[data-items]')!.textContent!, created: tr.children[3]!.textContent!, active: tr.children[4]!.textContent! }));
    assert.equal(version.state, 'active');
    assert.equal(version.items.replace(/\D/g, ''), String(items));
    assert.match(version.created, /\d{4}/, 'a creation date');
    assert.match(version.active, /\d{4}/, 'when it became active');
    assert.equal(await page.$eval('[data-import]', (el) => el.textContent), 'No item batch has been sent through the catalog API yet.');
  });

  it("shows the last import's errors: which item and field failed, and why", async () => {
    // A feed with one good product, whose title is markup (shown as text), then one with a bad price.
    assert.equal(await importItems([{ id: 'console-1', catalogVersion: 1, type: 'product', attributes: { title: '<b>Bold</b> Enamel Mug', price: 1250, currency: 'GBP' } }]), 200);
    assert.equal(
      await importItems([
        { id: 'console-2', catalogVersion: 1, type: 'product', attributes: { title: 'Tin Mug', price: 900 } },
        { id: 'console-3', catalogVersion: 1, type: 'product', attributes: { title: 'Bad Mug', price: 'twelve pounds' } },
      ]),
      400,
    );
    await page.evaluate(() => (location.hash = '#overview'));
    await page.waitForSelector('dk-overview-page');
    await page.evaluate(() => (location.hash = '#catalog'));
    await page.waitForSelector('dk-catalog-page [data-import="refused"]', { timeout: 10_000 });
    assert.match(await page.$eval('[data-import="refused"]', (el) => el.textContent ?? ''), /^Refused: 2 items sent to version 1, .+; nothing was stored\.$/);
    assert.match(await page.$eval('[data-import-error]', (el) => el.textContent ?? ''), /1 of 2 items is invalid; nothing was stored/);
    const issues = await page.$$eval('table.import-issues tbody tr', (trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]));
    assert.equal(issues.length, 1);
    assert.equal(issues[0]![0], '[1].attributes.price');
    assert.equal(issues[0]![1], 'expected an integer (INTEGER attribute)');
    assert.deepEqual(await axeSerious(), [], 'catalog page with an import refused');
  });

  it('searches the items by title with the keyboard, each row with its photo, title, price and id, and pages through them', async () => {
    await page.focus('#item-q');
    await page.keyboard.type('mug');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /matching “mug”/.test(document.querySelector('[data-item-range]')?.textContent ?? ''));
    const summary = await range();
    const total = Number(/of ([\d,]+)/.exec(summary)![1]!.replace(/,/g, ''));
    assert.match(summary, /^Items 1–20 of [\d,]+ in version 1 matching “mug”$/);
    assert.ok(total > 40, summary);
    const first = await rows();
    assert.equal(first.length, 20);
    assert.ok(first.every((row) => /mug/i.test(row.title) || /mug/i.test(row.id)), JSON.stringify(first));
    assert.ok(first.some((row) => row.photo && /£\d+\.\d\d/.test(row.price)), 'rows show a photo and a price');
    // Next page, with the keyboard: the button keeps the focus.
    await page.focus('button[data-page="next"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('[data-item-range]')?.textContent ?? '').startsWith('Items 21–40 of'));
    const second = await rows();
    assert.equal(second.length, 20);
    assert.ok(second.every((row) => !first.some((f) => f.id === row.id)), 'the second page shows other items');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-page')), 'next');
    // Back to the first page, where Previous is disabled and the focus goes to Next.
    await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    await page.keyboard.up('Shift');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-page')), 'previous');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('[data-item-range]')?.textContent ?? '').startsWith('Items 1–20 of'));
    assert.deepEqual((await rows()).map((r) => r.id), first.map((r) => r.id));
    assert.equal(await page.$eval('button[data-page="previous"]', (b) => (b as HTMLButtonElement).disabled), true);
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-page') === 'next');
  });

  it('finds an item by its id, showing a title written as markup as text', async () => {
    await page.$eval('#item-q', (el) => ((el as HTMLInputElement).value = ''));
    await page.type('#item-q', 'console-1');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /matching “console-1”/.test(document.querySelector('[data-item-range]')?.textContent ?? ''));
    assert.deepEqual(await rows(), [{ id: 'console-1', title: '<b>Bold</b> Enamel Mug', price: '£12.50', photo: false }]);
    assert.equal(await page.$('table.items tbody b'), null, 'no element made from catalog data');
    // Nothing stored from the refused batch.
    await page.$eval('#item-q', (el) => ((el as HTMLInputElement).value = ''));
    await page.type('#item-q', 'console-3');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /No item of version 1 matches “console-3”/.test(document.querySelector('[data-item-range]')?.textContent ?? ''));
  });

  it('is free of serious axe findings and sideways scrolling at 1280×800 and 390×844', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewport(viewport);
      await page.reload();
      await page.waitForSelector('dk-catalog-page table.items tbody tr', { timeout: 10_000 });
      assert.deepEqual(await axeSerious(), [], `catalog page at ${viewport.width} px`);
      assert.deepEqual(await horizontalOverflow(page), [], `catalog page at ${viewport.width} px`);
    }
    assert.deepEqual(errors, []);
  });
});
