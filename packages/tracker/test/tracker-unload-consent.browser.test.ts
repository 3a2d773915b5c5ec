/** Leaving the page sends by beacon; consent mode keeps the cookie, the queue and the network untouched until consent. */
import { expect } from '@esm-bundle/chai';
import { readProfileCookie } from '../src/profile-cookie.js';
import { eventually, historyOf, queued, resetTracking, server, startTestTracker, TEST_TIMEOUT_MS } from './tracker-helpers.js';

/**
 * Every request the page makes to the companion, as "fetch /path" or "beacon /path": the browser's
 * own fetch and sendBeacon, wrapped to note the call and then do it. (Resource timing would be less
 * intrusive but Chromium leaves keepalive fetches out of it.)
 */
let requests: string[] = [];
const realFetch = window.fetch;
const realBeacon = navigator.sendBeacon;
function recordRequests(): void {
  requests = [];
  const note = (kind: string, url: string) => url.startsWith(server()) && requests.push(`${kind} ${new URL(url).pathname}`);
  window.fetch = (input, init) => {
    note('fetch', input instanceof Request ? input.url : String(input));
    return realFetch.call(window, input, init);
  };
  navigator.sendBeacon = (url, data) => {
    note('beacon', String(url));
    return realBeacon.call(navigator, url, data);
  };
}
function stopRecording(): void {
  window.fetch = realFetch;
  navigator.sendBeacon = realBeacon;
}
/** The tracker's requests, leaving out the test's own reads of the activity listing. */
const requestsToServer = () => requests.filter((request) => !request.endsWith('/activities'));

/** Each test starts from an empty queue and profile, with the tracker's requests recorded. */
function recordEachTest(): void {
  beforeEach(async () => {
    await resetTracking();
    recordRequests();
  });
  afterEach(async () => {
    stopRecording();
    await resetTracking();
  });
}

describe('tracker on pagehide', function () {
  this.timeout(TEST_TIMEOUT_MS);
  recordEachTest();

  it('sends waiting activities with sendBeacon when the page is hidden, and a later resend counts once', async () => {
    const tracker = startTestTracker({ batchDelay: 60_000 });
    const profileId = (await tracker.ready())!;
    tracker.track({ action: 'view', productId: '84029' });
    tracker.track({ action: 'add-to-cart', productId: '84029', metadata: { quantity: 2 } });
    await eventually(queued, (q) => q.length === 2);
    expect(await historyOf(profileId)).to.deep.equal([]);

    dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    const history = await eventually(() => historyOf(profileId), (h) => h.length >= 2);
    expect(history.map((a) => a.verb).sort()).to.deep.equal(['add-to-cart', 'view']);
    expect(requestsToServer()).to.deep.equal(['fetch /tracker/demo-tracker-key/identify', 'beacon /collect/demo-tracker-key']);

    // A beacon gets no answer, so the activities stayed queued; sending them again is harmless.
    expect(await queued()).to.have.length(2);
    await tracker.flush();
    expect(await queued()).to.deep.equal([]);
    expect(await historyOf(profileId)).to.have.length(2);
  });

  it('beacons at once when the tab is hidden (it may never come back), once, and empties the queue when it is visible again', async () => {
    const tracker = startTestTracker({ batchDelay: 60_000 });
    const profileId = (await tracker.ready())!;
    tracker.track({ action: 'view', productId: '22423' });
    await eventually(queued, (q) => q.length === 1);
    const visibility = (state: 'hidden' | 'visible') => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
      try {
        document.dispatchEvent(new Event('visibilitychange'));
      } finally {
        delete (document as unknown as { visibilityState?: string }).visibilityState;
      }
    };
    visibility('hidden');
    const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
    expect(history.map((a) => a.originalId)).to.deep.equal(['22423']);
    // The page then goes: what the hidden tab beaconed is not beaconed again.
    dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    expect(requestsToServer()).to.deep.equal(['fetch /tracker/demo-tracker-key/identify', 'beacon /collect/demo-tracker-key']);
    // A beacon gets no answer: the next ordinary send, when the shopper is back, empties the queue.
    expect(await queued()).to.have.length(1);
    visibility('visible');
    await eventually(queued, (q) => q.length === 0);
    expect(await historyOf(profileId)).to.have.length(1);
  });
});

describe('tracker consent mode', function () {
  this.timeout(TEST_TIMEOUT_MS);
  recordEachTest();

  it('writes no cookie, stores and sends nothing before consent, then delivers what the page saw', async () => {
    const tracker = startTestTracker({ consent: 'required' });
    tracker.track({ action: 'view', productId: '85123A' });
    dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    await tracker.flush();
    expect(await tracker.ready()).to.equal(undefined);
    expect(tracker.profileId()).to.equal(undefined);
    expect(readProfileCookie()).to.equal(undefined);
    expect(await queued()).to.deep.equal([]);
    expect(requestsToServer()).to.deep.equal([]);

    tracker.grantConsent();
    const profileId = (await tracker.ready())!;
    expect(readProfileCookie()).to.equal(profileId);
    const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
    expect(history.map((a) => a.originalId)).to.deep.equal(['85123A']);
    // The same observation sees the requests once they are allowed.
    expect(requestsToServer()).to.include.members(['fetch /tracker/demo-tracker-key/identify', 'fetch /collect/demo-tracker-key']);
  });

  it('stops, deletes the cookie and empties the queue when consent is revoked', async () => {
    const tracker = startTestTracker({ consent: 'required', batchDelay: 60_000 });
    tracker.grantConsent();
    const profileId = (await tracker.ready())!;
    tracker.track({ action: 'view', productId: '84029' });
    await eventually(queued, (q) => q.length === 1);

    tracker.revokeConsent();
    expect(readProfileCookie()).to.equal(undefined);
    expect(tracker.profileId()).to.equal(undefined);
    await eventually(queued, (q) => q.length === 0);
    requests = [];
    tracker.track({ action: 'view', productId: '85123A' });
    dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    await tracker.flush();
    expect(requestsToServer()).to.deep.equal([]);
    expect(await queued()).to.deep.equal([]);
    expect(await historyOf(profileId)).to.deep.equal([]);
  });
});
