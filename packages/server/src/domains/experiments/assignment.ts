/**
 * Which variant a shopper gets: a pure function of the shopper id and the experiment id, the draw of
 * the published `@attraqt/ab-test` client (no assignment table, the same on every process and in the
 * browser). docs/experiments.md describes it.
 */
import { murmur3 } from './murmur3.js';

export interface Draw {
  /** 1 to 100. */
  bucket: number;
  variantId: string;
}

/** `hash(shopper + "#" + experiment) % 100 + 1`, then the first variant whose running weight total reaches it. */
export function drawVariant(shopperId: string, experimentId: string, variants: ReadonlyArray<{ id: string; weight: number }>): Draw {
  const bucket = (murmur3(`${shopperId}#${experimentId}`) % 100) + 1;
  let total = 0;
  for (const variant of variants) {
    total += variant.weight;
    if (total >= bucket) return { bucket, variantId: variant.id };
  }
  // Weights are checked to sum to 100 when an experiment is defined, so the loop always returns.
  return { bucket, variantId: variants[0]!.id };
}

/** Longest shopper id an experiment counts: ids are echoed in exposures, so one request cannot log a huge one. */
export const MAX_SHOPPER_ID = 200;

/**
 * The shopper a search, suggest or autocomplete request names: `context.session`'s `sessionId` entry
 * when there is one, else its first entry. Undefined when there is none usable (the shopper then gets
 * the control and is not counted).
 */
export function searchShopperId(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const context = (body as { context?: unknown }).context;
  if (typeof context !== 'object' || context === null) return undefined;
  const session = (context as { session?: unknown }).session;
  if (typeof session !== 'object' || session === null || Array.isArray(session)) return undefined;
  const entries = session as Record<string, unknown>;
  const chosen = typeof entries.sessionId === 'string' ? entries.sessionId : Object.values(entries)[0];
  return usableShopperId(chosen);
}

export function usableShopperId(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= MAX_SHOPPER_ID ? value : undefined;
}
