/**
 * Experiment figures folded from log records, as the activity log hands them to the ledger: only a
 * click whose response id verified at collect time credits an exposure, and the daily series counts
 * exactly the shoppers the table counts (outliers left out of both).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExperimentResults } from '@discovery-kit/protocol';
import { DAY_MS } from '../src/platform/clock.js';
import type { Experiment } from '../src/domains/experiments/experiment-definitions.js';
import { ExperimentLedger } from '../src/domains/experiments/experiment-ledger.js';
import { experimentResults } from '../src/domains/experiments/experiment-results.js';
import type { LoggedActivity, LoggedExposure } from '../src/domains/tracking/activity-record.js';

const START = Date.UTC(2026, 10, 2);
const EXPERIMENT: Experiment = {
  id: 'x',
  name: 'x',
  widget: 'w',
  primaryMetric: 'conversionRate',
  variants: [
    { id: 'control', weight: 50 },
    { id: 'b', weight: 50 },
  ],
  status: 'running',
  createdAt: new Date(START).toISOString(),
  updatedAt: new Date(START).toISOString(),
  startedAt: new Date(START).toISOString(),
};

function exposure(shopper: string, variant: string, responseId: string, receivedAt: number): LoggedExposure {
  return { kind: 'exposure', tenant: 't', receivedAt, experiment: 'x', variant, shopper, profileId: shopper, responseId };
}

function activity(shopper: string, verb: string, receivedAt: number, extra: Partial<LoggedActivity> = {}): LoggedActivity {
  return { kind: 'activity', id: `${shopper}-${verb}-${receivedAt}`, tenant: 't', profileId: shopper, source: 'collect', verb, type: 'product', itemId: 'p', timestamp: receivedAt, receivedAt, sessionId: shopper, ...extra };
}

function fold(ledger: ExperimentLedger, record: LoggedExposure | LoggedActivity): void {
  ledger.fold('t', record, record.kind === 'activity' ? record.profileId : undefined);
}

const variantOf = (results: ExperimentResults, id: string) => results.variants.find((v) => v.variant === id)!;

test('a click credits the response it names only when the id verified at collect time', () => {
  const ledger = new ExperimentLedger(() => ({ startedAt: START }));
  fold(ledger, exposure('ann', 'b', 'r_servedToAnn00servedToAnn0', START + 1_000));
  // Logged before ids were signed (no attribution), or collected with an id that did not verify: the
  // same response id, and neither credits it.
  fold(ledger, activity('ann', 'click', START + 2_000, { sourceId: 'r_servedToAnn00servedToAnn0' }));
  fold(ledger, activity('ann', 'click', START + 3_000, { sourceId: 'r_servedToAnn00servedToAnn0', attribution: 'unverified' }));
  fold(ledger, activity('ann', 'click-on-reco', START + 3_500, { recommendationId: 'r_servedToAnn00servedToAnn0-2', attribution: 'unverified' }));
  const before = experimentResults(EXPERIMENT, ledger.figures('t', 'x'), START + 10_000);
  assert.equal(variantOf(before, 'b').clicks, 0);
  assert.equal(variantOf(before, 'b').clickThroughRate, 0);
  assert.equal(before.days[0]!.variants.b!.clicks, 0);

  fold(ledger, activity('ann', 'click', START + 4_000, { sourceId: 'r_servedToAnn00servedToAnn0', attribution: 'verified' }));
  const after = experimentResults(EXPERIMENT, ledger.figures('t', 'x'), START + 10_000);
  assert.equal(variantOf(after, 'b').clicks, 1);
  assert.equal(variantOf(after, 'b').clickThroughRate, 1);
  assert.equal(after.days[0]!.variants.b!.clicks, 1);
});

test('a click folded before the exposure it names (another process logged it) credits it when the exposure arrives, in either order alike', () => {
  const inOrder = new ExperimentLedger(() => ({ startedAt: START }));
  const reordered = new ExperimentLedger(() => ({ startedAt: START }));
  const probe = exposure('probe', 'control', 'r_probe0000000probe0000000', START);
  const served = exposure('bob', 'b', 'r_servedToBob00servedToBob0', START + 1_000);
  const click = activity('bob', 'click-on-reco', START + 1_200, { recommendationId: 'r_servedToBob00servedToBob0-3', attribution: 'verified' });
  for (const record of [probe, served, click]) fold(inOrder, record);
  for (const record of [probe, click, served]) fold(reordered, record);
  for (const ledger of [inOrder, reordered]) {
    const results = experimentResults(EXPERIMENT, ledger.figures('t', 'x'), START + 10_000);
    assert.equal(variantOf(results, 'b').clicks, 1);
    assert.equal(results.days[0]!.variants.b!.clicks, 1);
  }
  // Once only: the same click again, and a click whose exposure comes more than five minutes later, credit nothing more.
  fold(reordered, click);
  fold(reordered, activity('bob', 'click', START + 2_000, { sourceId: 'r_lateExposure0lateExposure', attribution: 'verified' }));
  fold(reordered, exposure('bob', 'b', 'r_lateExposure0lateExposure', START + 2_000 + 6 * 60_000));
  assert.equal(variantOf(experimentResults(EXPERIMENT, reordered.figures('t', 'x'), START + DAY_MS), 'b').clicks, 1);
});

test('the daily series leaves out the outliers the table leaves out, and its days add up to the table', () => {
  const ledger = new ExperimentLedger(() => ({ startedAt: START }));
  let responses = 0;
  // 60 shoppers served once each over two days; a third click, a fifth buy the next day.
  for (let i = 0; i < 60; i++) {
    const shopper = `s-${i}`;
    const variant = i % 2 === 0 ? 'control' : 'b';
    const at = START + (i % 2 === 0 ? 0 : DAY_MS / 2) + i * 60_000;
    const id = `r_${String(responses++).padStart(24, '0')}`;
    fold(ledger, exposure(shopper, variant, id, at));
    if (i % 3 === 0) fold(ledger, activity(shopper, 'click', at + 1_000, { sourceId: id, attribution: 'verified' }));
    if (i % 5 === 0) fold(ledger, activity(shopper, 'purchase', at + DAY_MS, { price: 2_500, quantity: 2 }));
  }
  // A crawler in b: 40 responses, clicked, and an order, on the first and the third day.
  for (let e = 0; e < 40; e++) {
    const id = `r_${String(responses++).padStart(24, '0')}`;
    const at = START + (e < 20 ? 0 : 2 * DAY_MS) + e * 1_000;
    fold(ledger, exposure('crawler', 'b', id, at));
    fold(ledger, activity('crawler', 'click', at + 10, { sourceId: id, attribution: 'verified' }));
  }
  fold(ledger, activity('crawler', 'purchase', START + 2 * DAY_MS + 60_000, { price: 99_000, quantity: 1 }));

  const results = experimentResults(EXPERIMENT, ledger.figures('t', 'x'), START + 3 * DAY_MS);
  assert.equal(results.outliers.users, 1, 'the crawler is an outlier');
  for (const variant of results.variants) {
    const summed = { users: 0, exposures: 0, clicks: 0, conversions: 0, revenue: 0 };
    for (const day of results.days) for (const key of Object.keys(summed) as Array<keyof typeof summed>) summed[key] += day.variants[variant.variant]?.[key] ?? 0;
    assert.deepEqual(summed, { users: variant.users, exposures: variant.exposures, clicks: variant.clicks, conversions: variant.conversions, revenue: variant.revenue }, variant.variant);
  }
  // By hand: b holds the 30 odd shoppers, not the crawler; 10 of them clicked, 6 bought two items at 25.00.
  assert.deepEqual(
    { users: variantOf(results, 'b').users, exposures: variantOf(results, 'b').exposures, clicks: variantOf(results, 'b').clicks, conversions: variantOf(results, 'b').conversions, revenue: variantOf(results, 'b').revenue },
    { users: 30, exposures: 30, clicks: 10, conversions: 6, revenue: 6 * 5_000 },
  );
  // The crawler's third day held only its exposures, clicks and order: with it left out, no such day.
  assert.deepEqual(
    results.days.map((d) => d.date),
    [new Date(START).toISOString().slice(0, 10), new Date(START + DAY_MS).toISOString().slice(0, 10)],
  );
});
