/** The console's verdict sentence from experiment results. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExperimentComparison, ExperimentResults } from '@discovery-kit/protocol';
import { verdict } from '../src/experiment-verdict.js';

function results(comparisons: Array<Partial<ExperimentComparison>>, daysRemaining: number | null, users = 1000): ExperimentResults {
  return {
    id: 'x',
    status: 'running',
    primaryMetric: 'conversionRate',
    variants: [{ variant: 'control', weight: 50, users, exposures: users, clicks: 0, clickThroughRate: 0, addToCarts: 0, addToCartRate: 0, conversions: 0, conversionRate: 0, revenue: 0, revenuePerUser: 0 }],
    comparisons: comparisons.map((c) => ({ variant: 'b', metric: 'conversionRate', difference: 0, lift: 0, ci95: [0, 0], pValue: 1, adjustedPValue: 1, significant: false, ...c })),
    outliers: { users: 0, threshold: 0 },
    srm: { pValue: 1, flagged: false },
    estimate: { lift: 0.05, usersPerVariant: 1000, daysRemaining },
    days: [],
    capped: false,
  };
}

test('a significant lift of the primary rate, in points, with the days still needed', () => {
  assert.equal(
    verdict(results([{ difference: 0.018, significant: true, adjustedPValue: 0.01 }, { metric: 'clickThroughRate', difference: 0.5, significant: true }], 6)),
    'b converts 1.8 points better, 95% sure; 6 more days to detect a 5% lift.',
  );
});

test('a difference that is not significant yet says so, with its adjusted p-value', () => {
  assert.equal(verdict(results([{ difference: -0.004, adjustedPValue: 0.41 }], 1)), 'b converts 0.4 points worse so far, not yet significant (p = 0.41); 1 more day to detect a 5% lift.');
  assert.equal(verdict(results([{ difference: 0.01, adjustedPValue: 0.2 }], null)), 'b converts 1.0 points better so far, not yet significant (p = 0.20); not enough data yet to size a 5% lift.');
});

test('nobody served yet', () => {
  assert.equal(verdict(results([], null, 0)), 'No shopper has been served yet.');
});
