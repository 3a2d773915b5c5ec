/** The statistics behind experiment results, against values from published tables. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benjaminiHochberg, chiSquareP, compareMeans, compareProportions, describe, sampleRatioP, tCritical, twoSidedNormalP, twoSidedTP, usersPerGroup } from '../src/domains/experiments/experiment-stats.js';

const close = (actual: number, expected: number, tolerance: number) => assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

test('distribution tails match the tables: normal, Student t, chi-square', () => {
  close(twoSidedNormalP(1.959964), 0.05, 1e-6);
  close(twoSidedNormalP(2.575829), 0.01, 1e-6);
  close(twoSidedNormalP(0), 1, 1e-12);
  close(twoSidedTP(2.228139, 10), 0.05, 1e-6);
  close(twoSidedTP(2.063899, 24), 0.05, 1e-6);
  close(tCritical(0.05, 10), 2.228139, 1e-5);
  close(chiSquareP(3.841459, 1), 0.05, 1e-6);
  close(chiSquareP(10.827566, 1), 0.001, 1e-6);
  close(chiSquareP(9.487729, 4), 0.05, 1e-6);
});

test('a two-proportion test: 200/2000 against 260/2000 is significant, 200/2000 against 205/2000 is not', () => {
  const strong = compareProportions({ successes: 200, trials: 2000 }, { successes: 260, trials: 2000 });
  close(strong.difference, 0.03, 1e-12);
  close(strong.lift, 0.3, 1e-12);
  assert.ok(strong.pValue < 0.01 && strong.ci95[0] > 0);
  const weak = compareProportions({ successes: 200, trials: 2000 }, { successes: 205, trials: 2000 });
  assert.ok(weak.pValue > 0.5 && weak.ci95[0] < 0 && weak.ci95[1] > 0);
});

test("Welch's t-test of two means with unequal variances", () => {
  // Reference figures from SciPy's ttest_ind(equal_var=False) on the same samples: t = -2.2192, df = 24.50, p = 0.035972.
  const a = describe([19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0]);
  const b = describe([28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 24.0, 13.2]);
  const result = compareMeans(a, b);
  close(result.difference, 21.59 - 19.37, 1e-9);
  close(result.pValue, 0.035972, 1e-5);
});

test('Benjamini–Hochberg adjusts in rank order and never lowers a p-value', () => {
  assert.deepEqual(benjaminiHochberg([0.01, 0.04, 0.03, 0.5]).map((p) => Math.round(p * 1e6) / 1e6), [0.04, 0.053333, 0.053333, 0.5]);
});

test('a split against its weights, and the sample size for 80% power', () => {
  assert.ok(sampleRatioP([5000, 5000], [0.5, 0.5]) > 0.99);
  assert.ok(sampleRatioP([5000, 4500], [0.5, 0.5]) < 0.001);
  assert.ok(sampleRatioP([9000, 1000], [0.9, 0.1]) > 0.99);
  // 10% → 10.5% at 80% power, two-sided 5%: the textbook 57,760 per group (within rounding of z).
  close(usersPerGroup(0.1, 0.05)!, 57_760, 10);
  assert.equal(usersPerGroup(0, 0.05), undefined);
});
