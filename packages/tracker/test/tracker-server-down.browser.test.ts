/**
 * The server down, then back: the tracker asks once per try while it is down (back-off 1 s, 2 s, 4 s,
 * then 5 s for the first minute, 30 s after) and sends promptly once the shopper is back (focus) or
 * does something. (A real stopped and restarted server: apps/storefront/test/tracker-in-chromium.test.ts.)
 */
import { expect } from '@esm-bundle/chai';
import { eventually, historyOf, queued, resetTracking, startTestTracker, TEST_TIMEOUT_MS } from './tracker-helpers.js';

/** The browser's fetch refuses every call to the tracker's server the way a stopped server does, until `bringUp`. */
function serverDown(): { calls: number[]; bringUp: () => void; restore: () => void } {
  const realFetch = window.fetch;
  let up = false;
  const calls: number[] = [];
  window.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.includes('/identify') || url.includes('/collect/')) {
      calls.push(performance.now());
      if (!up) return Promise.reject(new TypeError('Failed to fetch'));
    }
    return realFetch.call(window, input, init);
  };
  return {
    calls,
    bringUp: () => {
      up = true;
    },
    restore: () => {
      window.fetch = realFetch;
    },
  };
}

describe('tracker with the server down', function () {
  this.timeout(TEST_TIMEOUT_MS);
  beforeEach(resetTracking);
  afterEach(resetTracking);

  it('asks rarely while the server is down and sends as soon as the shopper comes back', async () => {
    const { calls, bringUp, restore } = serverDown();
    try {
      const started = performance.now();
      const tracker = startTestTracker({ batchDelay: 50 });
      tracker.track({ action: 'view', productId: '84029' });
      await new Promise((resolve) => setTimeout(resolve, 4000));
      // The identify at start (the first send waits for its back-off), then back-offs of 0.5-1 s, 1-2 s
      // and 2-4 s: three or four calls in four seconds, never two at once.
      expect(calls.length).to.be.within(3, 4);
      expect(calls.slice(1).every((at, i) => at - calls[i]! >= 400)).to.equal(true);
      expect(await queued()).to.have.length(1);

      bringUp();
      const back = performance.now();
      dispatchEvent(new Event('focus'));
      const profileId = await eventually(async () => tracker.profileId(), (id) => id !== undefined, 3000);
      const history = await eventually(() => historyOf(profileId!), (h) => h.length > 0, 3000);
      expect(history.map((a) => a.originalId)).to.deep.equal(['84029']);
      expect(performance.now() - back).to.be.below(3000);
      expect(back - started).to.be.below(6000);
      await eventually(queued, (q) => q.length === 0);
    } finally {
      restore();
    }
  });

  it('tries again at once when the shopper acts during a long back-off', async () => {
    const { calls, bringUp, restore } = serverDown();
    try {
      const tracker = startTestTracker({ batchDelay: 50 });
      tracker.track({ action: 'view', productId: '84029' });
      // The fourth failure puts the next try 2.5 to 5 s away; 2.2 s later a shopper's action tries at once.
      await eventually(async () => calls.length, (count) => count >= 4, 8000);
      await new Promise((resolve) => setTimeout(resolve, 2200));
      expect(calls).to.have.length(4);
      bringUp();
      tracker.track({ action: 'view', productId: '85123A' });
      const profileId = await eventually(async () => tracker.profileId(), (id) => id !== undefined, 1500);
      const history = await eventually(() => historyOf(profileId!), (h) => h.length >= 2, 1500);
      expect(history.map((a) => a.originalId).sort()).to.deep.equal(['84029', '85123A']);
    } finally {
      restore();
    }
  });
});
