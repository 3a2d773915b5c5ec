/** JSON over fetch for the elements: one timeout, cancellable, and an error for anything but a 2xx answer. */

/** A server that has not answered in this time is treated as down; the element stays quiet. */
const TIMEOUT_MS = 8000;

export async function requestJson(url: string, options: { body?: unknown; signal?: AbortSignal } = {}): Promise<unknown> {
  // One controller for the caller's cancel and the timeout (AbortSignal.any is too recent for some shoppers' browsers).
  const controller = new AbortController();
  const cancel = () => controller.abort();
  const timer = setTimeout(cancel, TIMEOUT_MS);
  options.signal?.addEventListener('abort', cancel);
  if (options.signal?.aborted) cancel();
  const post = options.body !== undefined;
  try {
    const response = await fetch(url, {
      method: post ? 'POST' : 'GET',
      headers: post ? { 'Content-Type': 'application/json' } : {},
      body: post ? JSON.stringify(options.body) : null,
      credentials: 'omit',
      signal: controller.signal,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
    return await response.json();
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}

/**
 * A server answer read under the field names of its @discovery-kit/protocol type: a renamed or removed
 * wire field fails the type-check here, while each value stays `unknown` until the element checks it
 * (a proxy's error page or an older server must not break the page).
 */
export type Untrusted<T> = { readonly [K in keyof T]?: unknown };

/** Reads a plain object, or an empty one, from untrusted JSON. */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `asRecord` under a protocol type's field names; the same function, so the bundle pays nothing for the names. */
export const asWire = asRecord as <T>(value: unknown) => Untrusted<T>;

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
