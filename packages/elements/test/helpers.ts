/** Shared by the element tests: the companion's address, polling with a deadline, and recording activity intents. */
import { ACTIVITY_EVENT } from '@discovery-kit/protocol';
import type { ActivityIntent } from '@discovery-kit/protocol';

declare global {
  interface Window {
    DISCOVERY_TEST_SERVER: string;
  }
}

export const server = (): string => window.DISCOVERY_TEST_SERVER;

/** An address where nothing listens: port 9 (discard) is closed on the test machines. */
export const UNREACHABLE = 'http://127.0.0.1:9';

/** Polls `probe` until it returns something truthy, failing with `what` after the deadline. */
export async function until<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 6000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

/** Records every activity intent that reaches `document`, as the tracker would see it. */
export function recordActivities(): { intents: ActivityIntent[]; stop: () => void } {
  const intents: ActivityIntent[] = [];
  const listener = (event: CustomEvent<ActivityIntent>) => intents.push(event.detail);
  document.addEventListener(ACTIVITY_EVENT, listener);
  return { intents, stop: () => document.removeEventListener(ACTIVITY_EVENT, listener) };
}

/** Keeps clicked links from leaving the test page (the element still sees the click). */
export function stayOnPage(): () => void {
  const listener = (event: Event) => event.preventDefault();
  document.addEventListener('click', listener);
  return () => document.removeEventListener('click', listener);
}

/** Records unhandled promise rejections while a test runs. */
export function recordUnhandledRejections(): { reasons: unknown[]; stop: () => void } {
  const reasons: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => reasons.push(event.reason);
  window.addEventListener('unhandledrejection', listener);
  return { reasons, stop: () => window.removeEventListener('unhandledrejection', listener) };
}

export function mount<T extends HTMLElement>(markup: string): T {
  const holder = document.createElement('div');
  holder.innerHTML = markup;
  const element = holder.firstElementChild as T;
  document.body.append(element);
  return element;
}

export interface WatchedRequest {
  path: string;
  query: unknown;
}

/**
 * Watches the page's requests to the search API, passing each on to the real server unchanged. A request for
 * a query in `held` waits until `release()` is called, so a test can make a slow answer arrive after a fast one.
 */
export function watchSearchRequests(held: string[] = []): { sent: WatchedRequest[]; settled: Promise<unknown>[]; release: () => void; restore: () => void } {
  const original = window.fetch;
  const sent: WatchedRequest[] = [];
  const settled: Promise<unknown>[] = [];
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { query?: unknown }) : {};
    if (url.pathname.startsWith('/search')) sent.push({ path: url.pathname, query: body.query });
    const answer = held.includes(String(body.query)) ? gate.then(() => original(input, init)) : original(input, init);
    settled.push(answer.catch(() => undefined));
    return answer;
  };
  return { sent, settled, release, restore: () => (window.fetch = original) };
}

/** Makes `queries` earlier shoppers' queries: searched, and their results pages viewed by two shoppers (autocomplete's rule). */
export async function seedSearches(queries: string[]): Promise<void> {
  for (const query of queries) {
    const response = await fetch(`${server()}/search`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: 'demo-search-token', query, options: { limit: 1 } }),
    });
    if (!response.ok) throw new Error(`Seeding "${query}" failed: ${response.status}`);
    const { metadata } = (await response.json()) as { metadata: { id: string } };
    for (const shopper of ['seed-shopper-1', 'seed-shopper-2']) {
      const view = { action: 'view', target: { page: `/search?q=${encodeURIComponent(query)}` }, sourceId: metadata.id, user: { sessionId: shopper }, metadata: { query } };
      const collected = await fetch(`${server()}/collect/demo-tracker-key`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(view) });
      if (!collected.ok) throw new Error(`Seeding the results page of "${query}" failed: ${collected.status}`);
    }
  }
}
