/** JSON over fetch for the elements: one timeout, cancellable, and an error for anything but a 2xx answer. */

/** A server that has not answered in this time is treated as down; the element stays quiet. */
const TIMEOUT_MS = 8000;

export async function requestJson(url: string, options: { body?: unknown; signal?: AbortSignal } = {}): Promise<unknown> {
  const signals = [AbortSignal.timeout(TIMEOUT_MS)];
  if (options.signal) signals.push(options.signal);
  const post = options.body !== undefined;
  const response = await fetch(url, {
    method: post ? 'POST' : 'GET',
    headers: post ? { 'Content-Type': 'application/json' } : {},
    body: post ? JSON.stringify(options.body) : null,
    credentials: 'omit',
    signal: AbortSignal.any(signals),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  return response.json();
}


/** Reads a plain object, or an empty one, from untrusted JSON. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
