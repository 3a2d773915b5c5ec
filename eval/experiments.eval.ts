/**
 * `npm run eval -- experiments`: simulated shoppers with known true rates, drawn into variants by the
 * server's own draw and folded through the server's own experiment ledger and results (the code
 * `GET /admin/experiments/{id}/results` runs). It prints:
 * - the false-positive rate over many A/A tests (near 5% per metric; the Benjamini–Hochberg decision
 *   across the four metrics keeps the chance of any false winner near 5% too);
 * - the power at the sample size the results' estimate computes (80% is the target);
 * - a sample ratio mismatch (a variant losing 10% of its shoppers) caught, and how rarely A/A tests flag one.
 * Options: `--tests N` (EVAL_TESTS, default 400) A/A tests and power runs each, `--seed N` (EVAL_SEED, default 7).
 */
import type { EvalResult } from './run.js';
import { seededRandom } from './seeded-shuffle.js';
import { drawVariant } from '../packages/server/src/domains/experiments/assignment.js';
import { ExperimentLedger } from '../packages/server/src/domains/experiments/experiment-ledger.js';
import { experimentResults } from '../packages/server/src/domains/experiments/experiment-results.js';
import { usersPerGroup } from '../packages/server/src/domains/experiments/experiment-stats.js';
import type { Experiment } from '../packages/server/src/domains/experiments/experiment-definitions.js';
import type { LoggedActivity, LoggedExposure } from '../packages/server/src/domains/tracking/activity-record.js';
import type { ExperimentResults } from '@discovery-kit/protocol';

function option(name: string, env: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at >= 0 ? process.argv[at + 1] : process.env[env];
  const value = Number(raw);
  return raw !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

interface TrueRates {
  /** Per exposure. */
  click: number;
  /** Per shopper. */
  cart: number;
  conversion: number;
}

interface Scenario {
  id: string;
  users: number;
  weights: [number, number];
  rates: [TrueRates, TrueRates];
  /** Share of variant b's shoppers whose exposures are lost (a broken variant page: the cause of a ratio mismatch). */
  lostInB?: number;
}

const START = Date.UTC(2026, 10, 1);
const BASE: TrueRates = { click: 0.1, cart: 0.12, conversion: 0.1 };

/** One experiment's shoppers folded through the ledger: exposures, clicks on them, add-to-carts, purchases. */
function simulate(scenario: Scenario, random: () => number): ExperimentResults {
  const experiment: Experiment = {
    id: scenario.id,
    name: scenario.id,
    widget: 'w',
    primaryMetric: 'conversionRate',
    variants: [
      { id: 'control', weight: scenario.weights[0] },
      { id: 'b', weight: scenario.weights[1] },
    ],
    status: 'running',
    createdAt: new Date(START).toISOString(),
    updatedAt: new Date(START).toISOString(),
    startedAt: new Date(START).toISOString(),
  };
  const ledger = new ExperimentLedger(() => ({ startedAt: START }));
  let at = START;
  let responses = 0;
  for (let u = 0; u < scenario.users; u++) {
    const shopper = `${scenario.id}-shopper-${u}`;
    const { variantId } = drawVariant(shopper, experiment.id, experiment.variants);
    const b = variantId === 'b';
    if (b && scenario.lostInB !== undefined && random() < scenario.lostInB) continue;
    const rates = scenario.rates[b ? 1 : 0];
    // Exposures per shopper: 1 + geometric, mean 2.
    let exposures = 1;
    while (random() < 0.5) exposures++;
    for (let e = 0; e < exposures; e++) {
      at += 1_000;
      const responseId = `r-${responses++}`;
      const exposure: LoggedExposure = { kind: 'exposure', tenant: 't', receivedAt: at, experiment: experiment.id, variant: variantId, shopper, profileId: shopper, responseId };
      ledger.fold('t', exposure, undefined);
      // As collect stamps a click naming a response id the server issued.
      if (random() < rates.click) ledger.fold('t', activity(shopper, 'click', at + 500, { sourceId: responseId, attribution: 'verified' }), shopper);
    }
    if (random() < rates.cart) ledger.fold('t', activity(shopper, 'add-to-cart', at + 600, {}), shopper);
    if (random() < rates.conversion) ledger.fold('t', activity(shopper, 'purchase', at + 700, { price: Math.round(2_000 + 8_000 * random() ** 2), quantity: 1 }), shopper);
  }
  return experimentResults(experiment, ledger.figures('t', experiment.id), at + 60_000);
}

function activity(profileId: string, verb: string, receivedAt: number, extra: Partial<LoggedActivity>): LoggedActivity {
  return { kind: 'activity', id: `${profileId}-${receivedAt}`, tenant: 't', profileId, source: 'collect', verb, type: 'product', itemId: 'p', timestamp: receivedAt, receivedAt, sessionId: profileId, ...extra };
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;

export default async function evaluate(): Promise<EvalResult> {
  const tests = option('tests', 'EVAL_TESTS', 400);
  const seed = option('seed', 'EVAL_SEED', 7);
  const random = seededRandom(seed);
  const aaUsers = 4_000;

  // A/A: both variants share the true rates; every significant difference is a false positive.
  const metrics = ['clickThroughRate', 'addToCartRate', 'conversionRate', 'revenuePerUser'] as const;
  const rawHits = new Map<string, number>(metrics.map((m) => [m, 0]));
  const adjustedHits = new Map<string, number>(metrics.map((m) => [m, 0]));
  let anyRaw = 0;
  let anyAdjusted = 0;
  let srmFalseFlags = 0;
  for (let t = 0; t < tests; t++) {
    const results = simulate({ id: `aa-${seed}-${t}`, users: aaUsers, weights: [50, 50], rates: [BASE, BASE] }, random);
    for (const c of results.comparisons) {
      if (c.pValue < 0.05) rawHits.set(c.metric, rawHits.get(c.metric)! + 1);
      if (c.significant) adjustedHits.set(c.metric, adjustedHits.get(c.metric)! + 1);
    }
    if (results.comparisons.some((c) => c.pValue < 0.05)) anyRaw++;
    if (results.comparisons.some((c) => c.significant)) anyAdjusted++;
    if (results.srm.flagged) srmFalseFlags++;
  }

  // Power: a 20% lift of a 10% conversion rate, at the users per variant the estimate asks for.
  const lift = 0.2;
  const perGroup = usersPerGroup(BASE.conversion, lift)!;
  const better: TrueRates = { ...BASE, conversion: BASE.conversion * (1 + lift) };
  let detectedRaw = 0;
  let detectedAdjusted = 0;
  const powerRuns = Math.max(50, Math.round(tests / 2));
  for (let t = 0; t < powerRuns; t++) {
    const results = simulate({ id: `power-${seed}-${t}`, users: perGroup * 2, weights: [50, 50], rates: [BASE, better] }, random);
    const conversion = results.comparisons.find((c) => c.metric === 'conversionRate')!;
    if (conversion.pValue < 0.05 && conversion.difference > 0) detectedRaw++;
    if (conversion.significant && conversion.difference > 0) detectedAdjusted++;
  }

  // SRM: variant b loses 10% of its shoppers (say, its page fails to load for some browsers).
  const srm = simulate({ id: `srm-${seed}`, users: 20_000, weights: [50, 50], rates: [BASE, BASE], lostInB: 0.1 }, random);

  return {
    name: 'experiments',
    setup: { seed, aaTests: tests, aaUsersPerTest: aaUsers, trueRates: 'CTR 10% per exposure, add-to-cart 12%, conversion 10% per shopper; 1 + geometric exposures (mean 2)', powerRuns, powerUsersPerVariant: perGroup },
    tables: [
      {
        title: 'A/A tests: false positives (true rates equal)',
        rows: [
          ...metrics.map((metric) => ({ metric, 'p < 0.05': pct(rawHits.get(metric)!, tests), 'significant (BH)': pct(adjustedHits.get(metric)!, tests) })),
          { metric: 'any of the four', 'p < 0.05': pct(anyRaw, tests), 'significant (BH)': pct(anyAdjusted, tests) },
          { metric: 'SRM flagged (p < 0.001)', 'p < 0.05': '', 'significant (BH)': pct(srmFalseFlags, tests) },
        ],
      },
      {
        title: `Power: conversion ${BASE.conversion * 100}% → ${better.conversion * 100}% (+${lift * 100}%) at ${perGroup} users per variant (the estimate's size for 80%)`,
        rows: [
          { decision: 'p < 0.05 (one test)', detected: pct(detectedRaw, powerRuns) },
          { decision: 'significant after BH across 4 metrics', detected: pct(detectedAdjusted, powerRuns) },
        ],
      },
      {
        title: 'Sample ratio mismatch: 50/50 weights, variant b loses 10% of its shoppers',
        rows: srm.variants.map((v) => ({ variant: v.variant, weight: v.weight, users: v.users })).concat([{ variant: `srm p = ${srm.srm.pValue.toExponential(2)}`, weight: 0, users: srm.srm.flagged ? 1 : 0 }]),
      },
    ],
    notes: [`SRM caught: ${srm.srm.flagged ? 'yes' : 'NO'} (flagged below p = 0.001).`],
  };
}
