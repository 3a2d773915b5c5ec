/**
 * The durable queue against the real companion: activities survive a reload and an offline period,
 * arrive exactly once, leave the queue only when the server took or refused them, and a full queue
 * drops its oldest.
 */
import { expect } from '@esm-bundle/chai';
import { activityFromIntent } from '../src/activity.js';
import { ActivityQueue, LEASE_MS } from '../src/activity-queue.js';
import { eventually, historyOf, queued, resetTracking, startTestTracker, UNREACHABLE, TEST_TIMEOUT_MS } from './tracker-helpers.js';

describe('tracker queue', function () {
  this.timeout(TEST_TIMEOUT_MS);
  beforeEach(resetTracking);
  afterEach(resetTracking);

  it('keeps an activity in IndexedDB across a reload and delivers it from the next page', async () => {
    const offline = startTestTracker({ collectUrl: UNREACHABLE });
    const profileId = (await offline.ready())!;
    offline.track({ action: 'view', productId: '84029' });
    await offline.flush();
    const waiting = await queued();
    expect(waiting.map((a) => a.target)).to.deep.equal([{ product: '84029' }]);
    offline.stop();

    // "Reload": a new tracker on the same IndexedDB and cookie finds the activity and sends it.
    const next = startTestTracker();
    expect(await next.ready()).to.equal(profileId);
    const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
    expect(history.map((a) => [a.verb, a.originalId])).to.deep.equal([['view', '84029']]);
    await eventually(queued, (q) => q.length === 0);
  });

  it('delivers exactly once after an offline period, even with two tabs sending', async () => {
    const offline = startTestTracker({ collectUrl: UNREACHABLE });
    const profileId = (await offline.ready())!;
    offline.track({ action: 'view', productId: '84029' });
    offline.track({ action: 'add-to-cart', productId: '84029', metadata: { quantity: 1 } });
    await offline.flush();
    await offline.flush();
    expect(await queued()).to.have.length(2);
    expect(await historyOf(profileId)).to.deep.equal([]);

    // Back online, in two tabs at once (two trackers on one IndexedDB); the offline one keeps retrying.
    const tabA = startTestTracker();
    const tabB = startTestTracker();
    await Promise.all([tabA.flush(), tabB.flush(), offline.flush()]);
    await eventually(queued, (q) => q.length === 0);
    await Promise.all([tabA.flush(), tabB.flush()]);
    const history = await historyOf(profileId);
    expect(history.map((a) => a.verb).sort()).to.deep.equal(['add-to-cart', 'view']);
  });

  it('retries by itself after a failed send, with back-off, and the retry is counted once', async () => {
    // The browser's fetch fails the first collect call the way a dropped connection does, then works again.
    const realFetch = window.fetch;
    const collectCalls: number[] = [];
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/collect/')) {
        collectCalls.push(performance.now());
        if (collectCalls.length === 1) return Promise.reject(new TypeError('Failed to fetch'));
      }
      return realFetch.call(window, input, init);
    };
    try {
      const tracker = startTestTracker({ batchDelay: 0 });
      const profileId = (await tracker.ready())!;
      tracker.track({ action: 'view', productId: '84029' });
      const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
      expect(history.map((a) => a.originalId)).to.deep.equal(['84029']);
      expect(collectCalls).to.have.length(2);
      // The first back-off is 0.5 to 1 s.
      expect(collectCalls[1]! - collectCalls[0]!).to.be.within(450, 1500);
      await eventually(queued, (q) => q.length === 0);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('waits while the browser says it is offline and sends on the online event', async () => {
    const onLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;
    let online = false;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
    try {
      const tracker = startTestTracker({ batchDelay: 60_000 });
      tracker.track({ action: 'view', productId: '85123A' });
      await tracker.flush();
      expect(await queued()).to.have.length(1);

      online = true;
      dispatchEvent(new Event('online'));
      const profileId = (await tracker.ready())!;
      const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
      expect(history.map((a) => a.originalId)).to.deep.equal(['85123A']);
      await eventually(queued, (q) => q.length === 0);
    } finally {
      delete (navigator as unknown as { onLine?: boolean }).onLine;
      expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')).to.deep.equal(onLine);
    }
  });

  it('drops an activity the server refuses for good, with a warning, and still delivers the rest of its batch', async () => {
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      const tracker = startTestTracker({ batchDelay: 60_000 });
      const profileId = (await tracker.ready())!;
      tracker.track({ action: 'add-to-cart', productId: '84029', metadata: { price: 2.5 } });
      tracker.track({ action: 'view', productId: '85123A' });
      await tracker.flush();
      expect(await queued()).to.deep.equal([]);
      expect(warnings.map((w) => String(w[0]))).to.deep.equal(['Discovery Kit: the server refused 1 activity (400); dropped.']);
      expect((await historyOf(profileId)).map((a) => a.originalId)).to.deep.equal(['85123A']);
    } finally {
      console.warn = warn;
    }
  });

  it('drops the oldest activities when the queue is full', async () => {
    const offline = startTestTracker({ collectUrl: UNREACHABLE, maxQueue: 3, batchDelay: 60_000 });
    const profileId = (await offline.ready())!;
    for (const productId of ['p1', 'p2', 'p3', 'p4', 'p5']) offline.track({ action: 'view', productId });
    await offline.flush();
    expect((await queued()).map((a) => a.target)).to.deep.equal([{ product: 'p3' }, { product: 'p4' }, { product: 'p5' }]);
    offline.stop();

    startTestTracker();
    const history = await eventually(() => historyOf(profileId), (h) => h.length >= 3);
    expect(history.map((a) => a.originalId).sort()).to.deep.equal(['p3', 'p4', 'p5']);
  });

  it('leases what one tab takes, so that another tab sharing the database skips it until it is given back or the lease ends', async () => {
    const tabA = new ActivityQueue(500);
    const tabB = new ActivityQueue(500);
    const first = activityFromIntent({ action: 'view', productId: 'p1' }, '/');
    const second = activityFromIntent({ action: 'view', productId: 'p2' }, '/');
    await tabA.add(first);
    await tabA.add(second);
    const now = Date.now();
    expect((await tabA.take(1, now)).activities.map((a) => a.id)).to.deep.equal([first.id]);
    expect(await tabB.take(10, now)).to.deep.equal({ activities: [second], leasedElsewhere: 1 });
    expect(await tabA.take(10, now)).to.deep.equal({ activities: [], leasedElsewhere: 2 });
    await tabA.release([first.id]);
    expect((await tabB.take(10, now)).activities.map((a) => a.id)).to.deep.equal([first.id]);
    // A tab that died holding a lease delays its activities by one lease, not forever.
    expect((await tabA.take(10, now + LEASE_MS + 1)).activities.map((a) => a.id)).to.deep.equal([first.id, second.id]);
  });
});
