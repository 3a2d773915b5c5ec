/**
 * The tracker of the demo shop as DevTools shows it, in real Chromium against the real companion:
 * leaving a page delivers what it saw exactly once and leaves no request of the tracker cancelled or
 * pending in the page's network log; with the server stopped, each retry costs one console error,
 * and a restarted server gets the waiting activities within seconds, without any shopper action.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CDPSession, Page } from 'puppeteer-core';
import { DESKTOP, open, startShop, type Shop } from './shop-in-chromium.js';

interface Logged {
  verb: string;
  originalId: string;
}

/** What the page's network log (the DevTools protocol) says of each request to the tracker's endpoints. */
interface TrackerRequest {
  path: string;
  status?: number;
  ended?: 'finished' | 'failed';
  error?: string;
}

async function watchTrackerRequests(page: Page): Promise<{ requests: Map<string, TrackerRequest>; cdp: CDPSession }> {
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  const requests = new Map<string, TrackerRequest>();
  cdp.on('Network.requestWillBeSent', (event) => {
    const path = new URL(event.request.url).pathname;
    if (/^\/(collect|tracker)\//.test(path)) requests.set(event.requestId, { path });
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId);
    if (request) request.status = event.response.status;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) request.ended = 'finished';
  });
  cdp.on('Network.loadingFailed', (event) => {
    const request = requests.get(event.requestId);
    if (request) Object.assign(request, { ended: 'failed', error: event.errorText });
  });
  return { requests, cdp };
}

const tracker = (page: Page) => page.waitForFunction(() => (window as unknown as { DiscoveryKit?: { tracker?: unknown } }).DiscoveryKit?.tracker !== undefined);
const profileIdOf = (page: Page) => page.evaluate(() => (window as unknown as { DiscoveryKit: { tracker: { ready: () => Promise<string | undefined> } } }).DiscoveryKit.tracker.ready());
const track = (page: Page, action: string, productId: string) =>
  page.evaluate((intent) => (window as unknown as { DiscoveryKit: { tracker: { track: (i: unknown) => void } } }).DiscoveryKit.tracker.track(intent), { action, productId });

describe('the tracker in Chromium, leaving pages and losing the server', () => {
  let shop: Shop;

  before(async () => {
    shop = await startShop();
  });
  after(async () => {
    await shop?.close();
  });

  async function history(profileId: string): Promise<Logged[]> {
    const res = await fetch(shop.url(`/tracker/demo-tracker-key/profiles/${encodeURIComponent(profileId)}/activities?page[size]=100`));
    if (res.status === 404) return [];
    return ((await res.json()) as { data: Logged[] }).data;
  }

  async function until(profileId: string, what: string, done: (list: Logged[]) => boolean, deadlineMs = 10_000): Promise<Logged[]> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const list = await history(profileId);
      if (done(list)) return list;
      if (Date.now() > deadline) throw new Error(`no ${what} after ${deadlineMs} ms: ${JSON.stringify(list)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('delivers what a page saw once when the shopper leaves, and no tracker request ends cancelled or pending', async () => {
    const page = await open(shop, DESKTOP);
    const { requests } = await watchTrackerRequests(page);
    await page.goto(shop.url('/shop/product.html?id=84029'));
    await tracker(page);
    const profileId = (await profileIdOf(page))!;
    await until(profileId, 'product view', (list) => list.some((a) => a.verb === 'view' && a.originalId === '84029'));
    // The add-to-cart is made and the page left at once. Requests counted from here on may be the
    // tracker's ordinary send (if its timer fires between the two) or the send made on leaving: either
    // may end after the page's session is gone, so only the earlier ones must show an end. A timer's
    // send still on its way now would be cut the same way: the count is taken once every request so
    // far has ended (on a loaded machine one can start just before it).
    for (const deadline = Date.now() + 5_000; [...requests.values()].some((r) => r.ended === undefined) && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const beforeLeaving = requests.size;
    await track(page, 'add-to-cart', '84029');
    await page.goto('about:blank');
    const list = await until(profileId, 'add-to-cart sent on leaving', (l) => l.some((a) => a.verb === 'add-to-cart'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await history(profileId)).filter((a) => a.verb === 'add-to-cart').length, 1, JSON.stringify(list));
    // DevTools reports a send's end a moment after the server stored it: on a loaded machine, wait (up to 5 s) for the last events.
    for (const deadline = Date.now() + 5_000; [...requests.values()].some((r) => r.ended === undefined) && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seen = [...requests.values()];
    assert.ok(seen.some((r) => r.path.startsWith('/collect/')), 'the page view went through the network log');
    // What DevTools lists: every request the page made while open finished with a 2xx, none cancelled or
    // left pending; none of the sends made while leaving was cancelled or refused. (A send made as the page
    // goes may get no end event at all: the browser completes it after the page's session is gone — the
    // server's history above shows it stored once.)
    assert.deepEqual(
      seen.slice(0, beforeLeaving).filter((r) => r.ended !== 'finished' || r.status === undefined || r.status >= 300),
      [],
      JSON.stringify(seen),
    );
    assert.deepEqual(
      seen.slice(beforeLeaving).filter((r) => r.ended === 'failed' || (r.status !== undefined && r.status >= 300)),
      [],
      JSON.stringify(seen),
    );
    await page.close();
    assert.deepEqual(shop.problems, []);
  });

  it('prints one console error per retry while the server is down, and delivers within seconds of its return', async () => {
    const page = await open(shop, DESKTOP);
    const { requests } = await watchTrackerRequests(page);
    const errors: number[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(Date.now());
    });
    await page.goto(shop.url('/shop/product.html?id=85123A'));
    await tracker(page);
    const profileId = (await profileIdOf(page))!;
    await until(profileId, 'product view', (list) => list.some((a) => a.verb === 'view' && a.originalId === '85123A'));
    await new Promise((resolve) => setTimeout(resolve, 500));

    await shop.stopServer();
    const before = requests.size;
    errors.length = 0;
    const down = Date.now();
    await track(page, 'add-to-cart', '85123A');
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    const tries = [...requests.values()].slice(before);
    // Each try is one request, failed, and one console line; tries back off (1, 2, 4, then 5 s at most).
    assert.ok(tries.length >= 4 && tries.length <= 10, `${tries.length} tries in 20 s`);
    assert.ok(tries.every((r) => r.ended === 'failed'), JSON.stringify(tries));
    assert.equal(errors.length, tries.length, 'one console error per try');
    const gaps = errors.slice(1).map((at, i) => at - errors[i]!);
    assert.ok(gaps.every((gap) => gap >= 400), `a burst printed more than one error: gaps ${gaps.join(', ')} ms`);
    assert.ok(errors[0]! - down < 2000, 'the first send is tried at once');

    await shop.restartServer();
    const back = Date.now();
    await until(profileId, 'add-to-cart after the restart', (list) => list.some((a) => a.verb === 'add-to-cart' && a.originalId === '85123A'), 15_000);
    const waited = Date.now() - back;
    assert.ok(waited < 7000, `delivered ${waited} ms after the server came back`);
    await page.close();
    // The console errors of the outage are the browser's own lines for the refused connections; nothing else.
    shop.problems.splice(0).forEach((problem) => assert.match(problem, /ERR_CONNECTION_REFUSED/));
  });
});
