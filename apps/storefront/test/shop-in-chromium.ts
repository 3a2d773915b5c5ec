/**
 * Shared by the storefront's Chromium tests: the real companion in demo mode with a freshly built bundle,
 * puppeteer pages at a desktop or phone size, and measurements a shopper would notice (layout shift, the
 * elements' shadow roots, axe).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { createLogger } from '@discovery-kit/server';
import { startCompanion, type RunningCompanion } from '../../companion/src/companion.js';
import { DEMO_CONFIG } from '../../companion/src/options.js';
import { buildSdk } from '../../../scripts/build-sdk.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
/**
 * Where the screenshots go: the docs' own (docs/images) with UPDATE_SCREENSHOTS=1, otherwise a
 * temporary folder, so that a test run leaves the working tree as it found it.
 */
export const IMAGES_DIR = process.env.UPDATE_SCREENSHOTS === '1'
  ? fileURLToPath(new URL('../../../docs/images/', import.meta.url))
  : mkdtempSync(join(tmpdir(), 'discovery-screenshots-'));
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface Shop {
  url: (path: string) => string;
  browser: Browser;
  companion: RunningCompanion;
  /** Console errors and uncaught exceptions of every page opened with `open`. */
  problems: string[];
  /** Stops the companion (as an operator would: in-flight requests finish, the port closes). */
  stopServer: () => Promise<void>;
  /** Starts it again on the same port and data directory. */
  restartServer: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startShop(): Promise<Shop> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: npm test installs it (scripts/ensure-chromium.mjs), or set CHROME_PATH.`);
  const dir = await mkdtemp(join(tmpdir(), 'discovery-shop-'));
  const sdkDir = join(dir, 'sdk');
  await buildSdk(sdkDir);
  await mkdir(IMAGES_DIR, { recursive: true });
  const start = (port: number) =>
    startCompanion(
      { configFile: DEMO_CONFIG, port, host: '127.0.0.1', dataDir: join(dir, 'data'), demo: true, demoActivities: false, logLevel: 'silent', sdkDir },
      createLogger('silent'),
    );
  let companion = await start(0);
  let running = true;
  const port = Number(new URL(companion.url).port);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--hide-scrollbars'],
  });
  const shop: Shop = {
    url: (path) => `${companion.url}${path}`,
    browser,
    companion,
    problems: [],
    stopServer: async () => {
      running = false;
      await companion.close();
    },
    restartServer: async () => {
      companion = shop.companion = await start(port);
      running = true;
    },
    close: async () => {
      await browser.close();
      if (running) await companion.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return shop;
}

/** Page script (as text: tsx would wrap named functions in a helper the page does not have) that records layout shifts for `layoutShift`. */
export const RECORD_LAYOUT_SHIFTS = `
  window.layoutShifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.layoutShifts.push(entry.value);
  }).observe({ type: 'layout-shift', buffered: true });
`;

/**
 * A fresh page (own cookies and storage) at `viewport`, recording layout shifts from the first paint
 * (Layout Instability API; shifts right after input do not count, as in CLS) and console errors.
 */
export async function open(shop: Shop, viewport: typeof DESKTOP | typeof PHONE): Promise<Page> {
  const context = await shop.browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(viewport);
  page.on('pageerror', (error) => shop.problems.push(`uncaught: ${String(error)}`));
  page.on('console', (message) => {
    // The layout-shift script below is offered to every frame; the e-mail preview's sandbox rightly refuses it.
    if (message.type() === 'error' && !message.text().includes("'about:srcdoc'")) shop.problems.push(`console: ${message.text()}`);
  });
  await page.evaluateOnNewDocument(RECORD_LAYOUT_SHIFTS);
  return page;
}

/** Waits until every discovery element on the page (and inside the results) has finished loading. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    `(function all(root) {
      return [...root.querySelectorAll('discovery-recommendations, discovery-search-results')].flatMap((element) => [element, ...(element.shadowRoot ? all(element.shadowRoot) : [])]);
    })(document).every((element) => customElements.get(element.localName) !== undefined && element.hasAttribute('state') && element.getAttribute('state') !== 'loading')`,
    { timeout: 15_000 },
  );
  // Images decoded and the last frame painted.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 300))));
}

/** The page's cumulative layout shift so far: the sum of the shifts of the largest session window (5 s, gaps < 1 s) is CLS; here every shift is summed, which is never less. */
export async function layoutShift(page: Page): Promise<number> {
  const supported = await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes('layout-shift'));
  if (!supported) throw new Error('This Chromium does not report layout shifts: nothing would be measured.');
  return page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0));
}

/** Runs axe in the page (its CSP would refuse the injected script, so it is bypassed for this page only). */
export async function axe(page: Page, rules: string[]): Promise<Array<{ id: string; nodes: string[] }>> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (only) => {
    const result = await (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> } }).axe.run(document, {
      runOnly: { type: 'rule', values: only },
    });
    return result.violations.map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => JSON.stringify(node.target)) }));
  }, rules);
}

/** Serious and critical axe findings of every rule (the page's CSP must be bypassed before it loads: `setBypassCSP`). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (context: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }> }> } }).axe.run(document);
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${JSON.stringify(v.nodes.map((node) => node.target))}`);
  });
}

/** The elements sticking out past the right edge of the screen, when the page scrolls sideways (none when it does not). */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const wide = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > width + 1).slice(0, 5);
    return wide.length > 0 ? wide.map((el) => `${el.localName}.${el.className}`) : [`the page (${document.documentElement.scrollWidth} px)`];
  });
}

/** Evaluates `selector` inside the search results' shadow root. */
export const inResults = (selector: string) => `discovery-search-results >>> ${selector}`;
