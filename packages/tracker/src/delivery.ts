/** Posting a batch to the collection API and deciding, from the answer, what leaves the queue. No DOM. */
import type { ErrorBody } from '@discovery-kit/protocol';
import type { TrackedActivity } from './activity.js';

/** What became of a batch: `delivered` and `refused` leave the queue, `retry` stays for the back-off. */
export interface DeliveryResult {
  delivered: string[];
  refused: string[];
  retry: string[];
}

/** Bodies stay under the 64 KB that browsers allow in flight for keepalive fetches and beacons. */
export const MAX_BODY_BYTES = 60_000;
/** A batch holds at most this many activities (the server takes 500). */
export const MAX_BATCH = 100;

/** Splits activities into bodies small enough for a beacon; the server refuses batches whole, so smaller is safer. */
export function batchBodies(activities: TrackedActivity[]): TrackedActivity[][] {
  const batches: TrackedActivity[][] = [];
  let current: TrackedActivity[] = [];
  let bytes = 2;
  for (const activity of activities) {
    const size = JSON.stringify(activity).length + 1;
    if (current.length > 0 && (bytes + size > MAX_BODY_BYTES || current.length >= MAX_BATCH)) {
      batches.push(current);
      current = [];
      bytes = 2;
    }
    current.push(activity);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Statuses worth another try: the server or the network may get better. */
const retryable = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;

/**
 * Sends one batch as text/plain JSON (a CORS "simple" request: no preflight, and the same body a
 * beacon sends); `keepalive`, so that a send under way when the page goes still arrives.
 * A network failure or a 408/429/5xx keeps everything for a retry. Any other 4xx will
 * never succeed: the server refuses a batch whole and names the bad indexes, so those are dropped
 * with a warning and the rest are retried at once; a refusal naming no index drops the whole batch.
 */
export async function postBatch(url: string, batch: TrackedActivity[], fetchImpl: typeof fetch = fetch): Promise<DeliveryResult> {
  const ids = batch.map((activity) => activity.id);
  const body = JSON.stringify(batch);
  let response: Response;
  try {
    response = await fetchImpl(url, { method: 'POST', body, keepalive: body.length < MAX_BODY_BYTES, credentials: 'omit' });
    // Read to the end: a body left unread keeps the request open, "pending" in DevTools until the page goes, then "cancelled".
    if (response.ok) await response.arrayBuffer();
  } catch {
    return { delivered: [], refused: [], retry: ids };
  }
  if (response.ok) return { delivered: ids, refused: [], retry: [] };
  if (retryable(response.status)) return { delivered: [], refused: [], retry: ids };
  const bad = new Set<number>();
  try {
    // The protocol's error body, any part of which may be missing (a proxy's error page is not ours).
    const answer = (await response.json()) as Partial<ErrorBody>;
    for (const issue of answer.error?.issues ?? []) {
      const index = /^\[(\d+)\]/.exec(issue.path ?? '')?.[1];
      if (index !== undefined) bad.add(Number(index));
    }
  } catch {
    // An answer without a readable body names no index: the whole batch is refused.
  }
  const refused = bad.size === 0 ? ids : ids.filter((_, index) => bad.has(index));
  console.warn(`Discovery Kit: the server refused ${refused.length} activit${refused.length === 1 ? 'y' : 'ies'} (${response.status}); dropped.`);
  return { delivered: [], refused, retry: ids.filter((id) => !refused.includes(id)) };
}
