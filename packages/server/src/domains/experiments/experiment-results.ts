/**
 * Experiment results from the folded figures (experiment-ledger.ts): per variant users, exposures and
 * rates; each variant against the control per metric, Benjamini–Hochberg across those comparisons;
 * outliers (exposures above mean + 7σ) left out; a chi-square check of the split; and the days still
 * needed to detect a lift of the primary rate at 80% power.
 */
import type { ExperimentComparison, ExperimentResults, ExperimentVariantResult } from '@discovery-kit/protocol';
import { DAY_MS } from '../../platform/clock.js';
import type { Experiment, ExperimentMetric } from './experiment-definitions.js';
import type { ExperimentFigures, UserFigures } from './experiment-ledger.js';
import { benjaminiHochberg, compareMeans, compareProportions, describe, quantile, sampleRatioP, usersPerGroup, type Comparison } from './experiment-stats.js';

export const SIGNIFICANCE = 0.05;
export const SRM_THRESHOLD = 0.001;
/** The lift the estimate sizes for, relative to the control's primary rate. */
export const DETECTABLE_LIFT = 0.05;
const OUTLIER_SIGMAS = 7;
/** Revenue per user is winsorised at this quantile for its test, so one huge order does not decide it. */
const WINSOR_QUANTILE = 0.95;

const RATES = ['clickThroughRate', 'addToCartRate', 'conversionRate'] as const;

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

interface VariantUsers {
  id: string;
  weight: number;
  users: UserFigures[];
}

export function experimentResults(experiment: Experiment, figures: ExperimentFigures | undefined, now: number): ExperimentResults {
  const all = [...(figures?.users.values() ?? [])];
  const threshold = outlierThreshold(all);
  const kept = all.filter((u) => u.exposures <= threshold);
  const groups: VariantUsers[] = experiment.variants.map((v) => ({ id: v.id, weight: v.weight, users: kept.filter((u) => u.variant === v.id) }));
  const variants = groups.map(variantResult);
  const comparisons = compare(groups, variants);
  const srmP = sampleRatioP(
    groups.map((g) => g.users.length),
    groups.map((g) => g.weight / 100),
  );
  const startedAt = experiment.startedAt === undefined ? undefined : Date.parse(experiment.startedAt);
  const endAt = experiment.stoppedAt === undefined ? now : Date.parse(experiment.stoppedAt);
  return {
    id: experiment.id,
    status: experiment.status,
    primaryMetric: experiment.primaryMetric,
    from: experiment.startedAt,
    to: experiment.stoppedAt,
    variants,
    comparisons,
    outliers: { users: all.length - kept.length, threshold: Number.isFinite(threshold) ? Math.floor(threshold) : 0 },
    srm: { pValue: round(srmP, 6), flagged: srmP < SRM_THRESHOLD },
    estimate: estimate(experiment, groups, variants[0], startedAt === undefined ? 0 : Math.max(0, endAt - startedAt)),
    days: days(kept),
    capped: figures?.capped ?? false,
  };
}

/** Mean + 7σ of exposures per shopper; with fewer than two shoppers nobody is an outlier. */
function outlierThreshold(users: readonly UserFigures[]): number {
  if (users.length < 2) return Infinity;
  const { mean, variance } = describe(users.map((u) => u.exposures));
  return mean + OUTLIER_SIGMAS * Math.sqrt(variance);
}

function variantResult(group: VariantUsers): ExperimentVariantResult {
  let exposures = 0;
  let clicks = 0;
  let addToCarts = 0;
  let conversions = 0;
  let revenue = 0;
  for (const user of group.users) {
    exposures += user.exposures;
    clicks += user.clicks;
    if (user.addedToCart) addToCarts++;
    if (user.convertedAt !== undefined) conversions++;
    revenue += user.revenue;
  }
  const users = group.users.length;
  return {
    variant: group.id,
    weight: group.weight,
    users,
    exposures,
    clicks,
    clickThroughRate: round(ratio(clicks, exposures), 6),
    addToCarts,
    addToCartRate: round(ratio(addToCarts, users), 6),
    conversions,
    conversionRate: round(ratio(conversions, users), 6),
    revenue,
    revenuePerUser: round(ratio(revenue, users), 4),
  };
}

function compare(groups: readonly VariantUsers[], variants: readonly ExperimentVariantResult[]): ExperimentComparison[] {
  const control = variants[0]!;
  const raw: Array<{ variant: string; metric: ExperimentMetric; comparison: Comparison }> = [];
  // One cap for both sides, from every kept shopper's revenue: the same big order is cut the same way in each.
  const cap = quantile(groups.flatMap((g) => g.users.filter((u) => u.revenue > 0).map((u) => u.revenue)), WINSOR_QUANTILE);
  const winsorised = (group: VariantUsers) => describe(group.users.map((u) => Math.min(u.revenue, cap)));
  variants.slice(1).forEach((variant, i) => {
    const group = groups[i + 1]!;
    for (const metric of RATES) {
      const [successes, trials] = rateCounts(metric, variant);
      const [controlSuccesses, controlTrials] = rateCounts(metric, control);
      raw.push({ variant: variant.variant, metric, comparison: compareProportions({ successes: controlSuccesses, trials: controlTrials }, { successes, trials }) });
    }
    const means = compareMeans(winsorised(groups[0]!), winsorised(group));
    // The test runs on winsorised revenue; the difference and lift shown are the plain means'.
    const difference = variant.revenuePerUser - control.revenuePerUser;
    raw.push({ variant: variant.variant, metric: 'revenuePerUser', comparison: { ...means, difference, lift: control.revenuePerUser > 0 ? difference / control.revenuePerUser : 0 } });
  });
  const adjusted = benjaminiHochberg(raw.map((r) => r.comparison.pValue));
  return raw.map(({ variant, metric, comparison }, i) => ({
    variant,
    metric,
    difference: round(comparison.difference, 6),
    lift: round(comparison.lift, 6),
    ci95: [round(comparison.ci95[0], 6), round(comparison.ci95[1], 6)],
    pValue: round(comparison.pValue, 6),
    adjustedPValue: round(adjusted[i]!, 6),
    significant: adjusted[i]! < SIGNIFICANCE,
  }));
}

function rateCounts(metric: (typeof RATES)[number], v: ExperimentVariantResult): [number, number] {
  if (metric === 'clickThroughRate') return [v.clicks, v.exposures];
  if (metric === 'addToCartRate') return [v.addToCarts, v.users];
  return [v.conversions, v.users];
}

/**
 * Days until the smallest variant holds the users needed to detect DETECTABLE_LIFT of the primary rate
 * (revenue per user is sized by conversion) at today's rate of new shoppers.
 */
function estimate(experiment: Experiment, groups: readonly VariantUsers[], control: ExperimentVariantResult | undefined, elapsedMs: number): ExperimentResults['estimate'] {
  const metric = experiment.primaryMetric === 'revenuePerUser' ? 'conversionRate' : experiment.primaryMetric;
  const base = control === undefined ? 0 : control[metric];
  const perGroup = usersPerGroup(base, DETECTABLE_LIFT) ?? null;
  const users = groups.reduce((sum, g) => sum + g.users.length, 0);
  if (perGroup === null || users === 0 || elapsedMs <= 0) return { lift: DETECTABLE_LIFT, usersPerVariant: perGroup, daysRemaining: null };
  // CTR is per exposure: the per-group need converts to shoppers through exposures per shopper.
  const exposuresPerUser = metric === 'clickThroughRate' ? Math.max(1, ratio(groups.reduce((s, g) => s + g.users.reduce((t, u) => t + u.exposures, 0), 0), users)) : 1;
  const smallest = Math.min(...groups.map((g) => g.weight)) / 100;
  const neededUsers = perGroup / exposuresPerUser / smallest;
  const usersPerDay = users / Math.max(elapsedMs / DAY_MS, 1 / 24);
  return { lift: DETECTABLE_LIFT, usersPerVariant: perGroup, daysRemaining: Math.max(0, Math.ceil((neededUsers - users) / usersPerDay)) };
}

type DayFigures = ExperimentResults['days'][number]['variants'][string];

/**
 * Each day's figures per variant, summed from the shoppers the table counts: a shopper on the day of
 * their first exposure, a conversion on the day of the first purchase, exposures, clicks and revenue
 * on the day they happened. So the days add up to the table, outliers left out of both.
 */
function days(users: readonly UserFigures[]): ExperimentResults['days'] {
  const byDay = new Map<number, Map<string, DayFigures>>();
  const at = (day: number, variant: string): DayFigures => {
    let variants = byDay.get(day);
    if (variants === undefined) byDay.set(day, (variants = new Map()));
    let figures = variants.get(variant);
    if (figures === undefined) variants.set(variant, (figures = { users: 0, exposures: 0, clicks: 0, conversions: 0, revenue: 0 }));
    return figures;
  };
  for (const user of users) {
    at(Math.floor(user.firstAt / DAY_MS), user.variant).users++;
    if (user.convertedAt !== undefined) at(Math.floor(user.convertedAt / DAY_MS), user.variant).conversions++;
    for (const [day, exposures, clicks, revenue] of user.days) {
      const figures = at(day, user.variant);
      figures.exposures += exposures;
      figures.clicks += clicks;
      figures.revenue += revenue;
    }
  }
  return [...byDay]
    .sort(([a], [b]) => a - b)
    .map(([day, variants]) => ({ date: new Date(day * DAY_MS).toISOString().slice(0, 10), variants: Object.fromEntries(variants) }));
}

function round(value: number, places: number): number {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
}
