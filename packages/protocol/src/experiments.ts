/**
 * Wire types of experiments (A/B tests of a widget or a search configuration) in the admin API
 * (`/admin/experiments...`), and the `experiment` stamp public responses carry when one touched them.
 */

export type ExperimentStatus = 'draft' | 'running' | 'stopped';

/** The figures results compare; `conversionRate` is the primary one unless an experiment names another. */
export type ExperimentMetric = 'clickThroughRate' | 'addToCartRate' | 'conversionRate' | 'revenuePerUser';

export interface ExperimentVariant {
  id: string;
  /** Integer share of shoppers, the weights of an experiment summing to 100. */
  weight: number;
  /** Widget experiments: fields of `PUT /admin/widgets/{id}` this variant changes (never on the control). */
  widget?: Record<string, unknown>;
  /** Search experiments: fields of a search configuration this variant changes (never on the control). */
  configuration?: Record<string, unknown>;
}

/** `PUT /admin/experiments/{id}`: `widget` or `searchToken` names the surface; the first variant is the control. */
export interface ExperimentRequest {
  name: string;
  widget?: string;
  searchToken?: string;
  /** Search experiments: the token's configuration under test (its default one when left out). */
  configurationId?: string;
  primaryMetric?: ExperimentMetric;
  variants: ExperimentVariant[];
}

export interface Experiment extends ExperimentRequest {
  id: string;
  status: ExperimentStatus;
  primaryMetric: ExperimentMetric;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  stoppedAt?: string;
  /** The variant whose settings `apply` wrote into the surface. */
  appliedVariant?: string;
}

export interface ExperimentListResponse {
  experiments: Experiment[];
}

/** In a recommendation response (top level) and a search response's `metadata`, when an experiment served it. */
export interface ExperimentStamp {
  id: string;
  variant: string;
}

export interface ExperimentVariantResult {
  variant: string;
  weight: number;
  /** Distinct shoppers served at least once while it ran (outliers left out). */
  users: number;
  exposures: number;
  /** Exposures followed by a click whose `sourceId` (or `recommendationId`) is that response. */
  clicks: number;
  clickThroughRate: number;
  /** Users with an add-to-cart after their first exposure. */
  addToCarts: number;
  addToCartRate: number;
  /** Users with a purchase after their first exposure. */
  conversions: number;
  conversionRate: number;
  /** Purchases after the first exposure, in the currency's minor unit. */
  revenue: number;
  revenuePerUser: number;
}

export interface ExperimentComparison {
  variant: string;
  metric: ExperimentMetric;
  /** Variant minus control: a rate as a fraction (0.018 = 1.8 points), revenue per user in minor units. */
  difference: number;
  /** `difference` relative to the control's value. */
  lift: number;
  ci95: [number, number];
  /** Two-sided: two-proportion z-test for rates, Welch's t-test for revenue per user (winsorised at the 95th percentile). */
  pValue: number;
  /** Benjamini–Hochberg across every comparison of the results. */
  adjustedPValue: number;
  significant: boolean;
}

export interface ExperimentResults {
  id: string;
  status: ExperimentStatus;
  primaryMetric: ExperimentMetric;
  from?: string;
  to?: string;
  variants: ExperimentVariantResult[];
  comparisons: ExperimentComparison[];
  /** Shoppers whose exposures exceed mean + 7σ, left out of every figure. */
  outliers: { users: number; threshold: number };
  /** Chi-square of users against the weights; flagged below 0.001. */
  srm: { pValue: number; flagged: boolean };
  /** Days still needed to detect `lift` of the primary rate at 80% power and today's traffic; null when it cannot be sized yet. */
  estimate: { lift: number; usersPerVariant: number | null; daysRemaining: number | null };
  /** Per day (UTC) and variant: users first served that day, exposures, clicks, conversions and revenue. */
  days: Array<{ date: string; variants: Record<string, { users: number; exposures: number; clicks: number; conversions: number; revenue: number }> }>;
  /** True when the experiment reached the shoppers it can follow and newer ones were left out. */
  capped: boolean;
}
