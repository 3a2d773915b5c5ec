/**
 * A recommendation training gives way to requests: while the serving thread's event loop is busy, the
 * training thread works in short slices and sleeps between them (platform/cpu-pacing.ts), so that on a
 * process's CPU quota the requests keep most of it; when the server is quiet it trains at full speed.
 * A stop does not wait for a training under way.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BusySignal, followBusySignal, pace, PACED_SHARE, takePacingStats } from '../src/platform/cpu-pacing.js';
import { makeDataDir, startTestServer, type TestServer } from './support/test-server.js';
import { TENANT } from './support/recommendation-fixture.js';
import { newActivity } from '../src/domains/tracking/new-activity.js';

/** Keeps this thread's event loop busy (80 ms of work per turn) until the returned function is called. */
function keepBusy(): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + 80;
    while (performance.now() < until);
  }, 1);
  return () => clearInterval(timer);
}

function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('pace(): background slices give way to a busy serving thread', () => {
  it('sleeps after a slice while the signal says busy, so the work keeps to its share; never when quiet or unfollowed', () => {
    const signal = new BusySignal();
    try {
      followBusySignal(signal.buffer);
      takePacingStats();
      signal.publish(0.9);
      work(30);
      const sleptFrom = performance.now();
      pace();
      const slept = performance.now() - sleptFrom;
      const busy = takePacingStats();
      assert.equal(busy.pauses, 1);
      // 30 ms of work at a 10% share: about 270 ms asleep.
      assert.ok(busy.sleptMs >= (30 * (1 - PACED_SHARE)) / PACED_SHARE - 1, `slept ${busy.sleptMs} ms`);
      assert.ok(slept >= busy.sleptMs - 5, `the thread was blocked ${slept} ms`);
      // A slice shorter than the minimum does not even read the signal.
      work(2);
      pace();
      assert.equal(takePacingStats().pauses, 0);
      signal.publish(0.2);
      work(30);
      pace();
      assert.deepEqual(takePacingStats(), { sleptMs: 0, pauses: 0 });
      followBusySignal(undefined);
      signal.publish(1);
      work(30);
      pace();
      assert.deepEqual(takePacingStats(), { sleptMs: 0, pauses: 0 });
    } finally {
      followBusySignal(undefined);
      signal.stop();
    }
  });

  it("publishes the serving thread's event-loop utilisation", async () => {
    const signal = new BusySignal().start();
    try {
      const view = new Int32Array(signal.buffer);
      const stop = keepBusy();
      await new Promise((resolve) => setTimeout(resolve, 350));
      const whileBusy = Atomics.load(view, 0);
      stop();
      await new Promise((resolve) => setTimeout(resolve, 350));
      const whileQuiet = Atomics.load(view, 0);
      assert.ok(whileBusy >= 700, `busy: ${whileBusy} per mille`);
      assert.ok(whileQuiet <= 300, `quiet: ${whileQuiet} per mille`);
    } finally {
      signal.stop();
    }
  });
});

describe('a model training on a busy server', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ dataDir: await makeDataDir() });
    // 2,000 shoppers, ten of 500 items each: a solve of about a hundred milliseconds.
    const activities = [];
    let state = 7;
    const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let s = 0; s < 2_000; s++) {
      for (let k = 0; k < 10; k++) {
        activities.push(newActivity({ profileId: `p${s}`, source: 'collect', verb: 'view', type: 'product', itemId: `i${Math.floor(500 * next() ** 2)}`, timestamp: Date.now() - 60_000 + k }));
      }
    }
    for (let at = 0; at < activities.length; at += 5_000) await server.server.deps.services.activities.recordActivities(TENANT, activities.slice(at, at + 5_000));
  });
  after(() => server.cleanup());

  it('trains at full speed when the server is quiet, and in paced slices while requests keep it busy', async () => {
    const models = server.server.deps.services.recommendations.models;
    await models.trainNow(TENANT, { force: true });
    const quiet = models.lastTimings(TENANT);
    assert.ok(models.model(TENANT) !== undefined, 'a model was trained');
    assert.equal(quiet?.pausedMs, 0);

    const stop = keepBusy();
    // The signal is measured every 100 ms: let it see the busy loop first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      await models.trainNow(TENANT, { force: true });
    } finally {
      stop();
    }
    const busy = models.lastTimings(TENANT);
    assert.ok((busy?.pausedMs ?? 0) > 0, `paused ${busy?.pausedMs} ms`);
  });

  it('a stop abandons a training under way instead of waiting for it', async () => {
    const models = server.server.deps.services.recommendations.models;
    const before = models.model(TENANT);
    const stop = keepBusy();
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const training = models.trainNow(TENANT, { force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const closing = performance.now();
      await models.close();
      const closeMs = performance.now() - closing;
      await training;
      // Paced at a tenth of the wall time, the training had seconds to go; the stop took well under that.
      assert.ok(closeMs < 2_000, `close took ${Math.round(closeMs)} ms`);
      assert.equal(models.model(TENANT), before, 'the abandoned training installed nothing');
    } finally {
      stop();
    }
  });
});
