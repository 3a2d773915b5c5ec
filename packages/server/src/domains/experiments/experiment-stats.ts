/**
 * The statistics behind experiment results: two-sided tests (two-proportion z for rates, Welch's t for
 * revenue per user), Benjamini–Hochberg across comparisons, a chi-square check of the users' split
 * against the weights (sample ratio mismatch), and the sample size for 80% power. The distribution
 * functions are computed from the regularized incomplete gamma and beta functions.
 */

/** z for a two-sided 95% interval, and for 80% power. */
export const Z_975 = 1.959963984540054;
export const Z_80 = 0.8416212335729143;

const LANCZOS = [676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 7). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let sum = 0.99999999999980993;
  for (let i = 0; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i + 1);
  const t = z + LANCZOS.length - 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPSILON = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 500;

/** Q(a, x) = Γ(a, x) / Γ(a), the upper regularized gamma function. */
export function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const prefix = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    // Series for the lower function, then its complement.
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < MAX_ITERATIONS && Math.abs(term) > Math.abs(sum) * EPSILON; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return Math.max(0, 1 - sum * prefix);
  }
  // Continued fraction for the upper function (modified Lentz).
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let n = 1; n < MAX_ITERATIONS; n++) {
    const an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return Math.min(1, prefix * h);
}

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITERATIONS; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + even / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + odd / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return h;
}

/** I_x(a, b), the regularized incomplete beta function. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast on this side of the mean; the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) covers the other.
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(|Z| ≥ |z|) for a standard normal Z. */
export function twoSidedNormalP(z: number): number {
  // erfc(|z|/√2) = Q(1/2, z²/2)
  return Number.isFinite(z) ? upperGamma(0.5, (z * z) / 2) : 0;
}

/** P(|T| ≥ |t|) for Student's t with `df` degrees of freedom. */
export function twoSidedTP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The t with P(|T| ≥ t) = `p` (bisection: the function is monotone). */
export function tCritical(p: number, df: number): number {
  let low = 0;
  let high = 1_000;
  for (let i = 0; i < 100; i++) {
    const mid = (low + high) / 2;
    if (twoSidedTP(mid, df) > p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** P(X ≥ x) for a chi-square X with `df` degrees of freedom. */
export function chiSquareP(x: number, df: number): number {
  return upperGamma(df / 2, x / 2);
}

export interface Comparison {
  /** Variant minus control, in the metric's own unit (a rate's points as a fraction, minor units per user). */
  difference: number;
  /** The difference relative to the control's value (0.05 = 5% better); 0 when the control's is 0. */
  lift: number;
  /** 95% interval of `difference`. */
  ci95: [number, number];
  pValue: number;
}

/** Two-sided two-proportion z-test (pooled standard error), with the unpooled 95% interval of the difference. */
export function compareProportions(control: { successes: number; trials: number }, variant: { successes: number; trials: number }): Comparison {
  const p1 = control.trials > 0 ? control.successes / control.trials : 0;
  const p2 = variant.trials > 0 ? variant.successes / variant.trials : 0;
  const difference = p2 - p1;
  const lift = p1 > 0 ? difference / p1 : 0;
  if (control.trials === 0 || variant.trials === 0) return { difference, lift, ci95: [difference, difference], pValue: 1 };
  const pooled = (control.successes + variant.successes) / (control.trials + variant.trials);
  const pooledSe = Math.sqrt(pooled * (1 - pooled) * (1 / control.trials + 1 / variant.trials));
  const se = Math.sqrt((p1 * (1 - p1)) / control.trials + (p2 * (1 - p2)) / variant.trials);
  const pValue = pooledSe === 0 ? (difference === 0 ? 1 : 0) : twoSidedNormalP(difference / pooledSe);
  return { difference, lift, ci95: [difference - Z_975 * se, difference + Z_975 * se], pValue };
}

export interface Sample {
  n: number;
  mean: number;
  /** Unbiased sample variance. */
  variance: number;
}

export function describe(values: readonly number[]): Sample {
  const n = values.length;
  if (n === 0) return { n: 0, mean: 0, variance: 0 };
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return { n, mean, variance: n > 1 ? squares / (n - 1) : 0 };
}

/** Two-sided Welch's t-test of two means, with the 95% interval of their difference. */
export function compareMeans(control: Sample, variant: Sample): Comparison {
  const difference = variant.mean - control.mean;
  const lift = control.mean !== 0 ? difference / control.mean : 0;
  if (control.n < 2 || variant.n < 2) return { difference, lift, ci95: [difference, difference], pValue: 1 };
  const a = control.variance / control.n;
  const b = variant.variance / variant.n;
  const se = Math.sqrt(a + b);
  if (se === 0) return { difference, lift, ci95: [difference, difference], pValue: difference === 0 ? 1 : 0 };
  const df = (a + b) ** 2 / (a ** 2 / (control.n - 1) + b ** 2 / (variant.n - 1));
  const half = tCritical(0.05, df) * se;
  return { difference, lift, ci95: [difference - half, difference + half], pValue: twoSidedTP(difference / se, df) };
}

/** Benjamini–Hochberg adjusted p-values, in the order given. */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let rank = m; rank >= 1; rank--) {
    const { p, i } = order[rank - 1]!;
    running = Math.min(running, (p * m) / rank);
    adjusted[i] = running;
  }
  return adjusted;
}

/** Chi-square goodness of fit of observed counts against expected shares (summing to 1). */
export function sampleRatioP(observed: readonly number[], shares: readonly number[]): number {
  const total = observed.reduce((s, n) => s + n, 0);
  if (total === 0 || observed.length < 2) return 1;
  let statistic = 0;
  observed.forEach((n, i) => {
    const expected = total * shares[i]!;
    if (expected > 0) statistic += (n - expected) ** 2 / expected;
  });
  return chiSquareP(statistic, observed.length - 1);
}

/**
 * Users needed in each of two groups to detect a relative `lift` of a rate `base` with a two-sided
 * 5% test at 80% power; undefined when the base rate is 0 or 1 (no lift can be sized).
 */
export function usersPerGroup(base: number, lift: number): number | undefined {
  const target = base * (1 + lift);
  if (base <= 0 || base >= 1 || target <= 0 || target >= 1 || lift === 0) return undefined;
  const variance = base * (1 - base) + target * (1 - target);
  return Math.ceil(((Z_975 + Z_80) ** 2 * variance) / (target - base) ** 2);
}

/** The value at the `q` quantile (nearest rank) of a list; the list is sorted in place. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))]!;
}
