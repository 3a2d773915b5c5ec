/** An experiment's results in words, as the console's experiments page says them ("b converts 1.8 points better, 95% sure; …"). */
import type { ExperimentComparison, ExperimentMetric, ExperimentResults } from '@discovery-kit/protocol';

const VERBS: Record<ExperimentMetric, string> = {
  clickThroughRate: 'gets clicked',
  addToCartRate: 'gets added to cart',
  conversionRate: 'converts',
  revenuePerUser: 'earns',
};

export const METRIC_NAMES: Record<ExperimentMetric, string> = {
  clickThroughRate: 'click-through rate',
  addToCartRate: 'add-to-cart rate',
  conversionRate: 'conversion rate',
  revenuePerUser: 'revenue per user',
};

/** A rate's difference in points (0.018 → "1.8 points"), revenue per user in the currency's major unit. */
export function differenceText(metric: ExperimentMetric, difference: number): string {
  const size = Math.abs(difference);
  return metric === 'revenuePerUser' ? `${(size / 100).toFixed(2)} more per shopper` : `${(size * 100).toFixed(1)} points`;
}

function comparisonText(c: ExperimentComparison): string {
  const direction = c.difference >= 0 ? 'better' : 'worse';
  const amount = differenceText(c.metric, c.difference);
  const size = c.metric === 'revenuePerUser' ? amount.replace('more', c.difference >= 0 ? 'more' : 'less') : `${amount} ${direction}`;
  return c.significant ? `${c.variant} ${VERBS[c.metric]} ${size}, 95% sure` : `${c.variant} ${VERBS[c.metric]} ${size} so far, not yet significant (p = ${c.adjustedPValue.toFixed(2)})`;
}

/** One sentence per variant on the primary metric, then how long until a 5% lift is detectable. */
export function verdict(results: ExperimentResults): string {
  if (results.variants.every((v) => v.users === 0)) return 'No shopper has been served yet.';
  const sentences = results.comparisons.filter((c) => c.metric === results.primaryMetric).map(comparisonText);
  const { daysRemaining, lift } = results.estimate;
  const wait = daysRemaining === null ? `not enough data yet to size a ${Math.round(lift * 100)}% lift` : daysRemaining === 0 ? `enough shoppers to detect a ${Math.round(lift * 100)}% lift` : `${daysRemaining} more day${daysRemaining === 1 ? '' : 's'} to detect a ${Math.round(lift * 100)}% lift`;
  return `${sentences.join('; ')}; ${wait}.`;
}
