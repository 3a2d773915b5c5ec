/** Shared by the tracker's browser tests: the real companion's address, its activity listing, and a clean slate. */
import { expect } from '@esm-bundle/chai';
import { ActivityQueue } from '../src/activity-queue.js';
import { clearProfileCookie } from '../src/profile-cookie.js';
import { startTracker, type Tracker, type TrackerOptions } from '../src/tracker.js';

declare global {
  interface Window {
    DISCOVERY_TEST_SERVER: string;
  }
}

export const TRACKER_KEY = 'demo-tracker-key';
export const server = () => window.DISCOVERY_TEST_SERVER;
/** Nothing listens on port 2 (and browsers do not block it): a real connection refusal, like a shop offline. */
export const UNREACHABLE = 'http://127.0.0.1:2/collect';

export interface ListedActivity {
  verb: string;
  type: string;
  originalId: string;
  profileId: string;
  price: number | null;
  quantity: number | null;
}

export async function historyOf(profileId: string): Promise<ListedActivity[]> {
  const response = await fetch(`${server()}/tracker/${TRACKER_KEY}/profiles/${encodeURIComponent(profileId)}/activities?page[size]=100`);
  if (response.status === 404) return [];
  expect(response.status).to.equal(200);
  return ((await response.json()) as { data: ListedActivity[] }).data;
}

/** Per-test time limit: the machine is shared, and a test may wait for a page's worth of sends. */
export const TEST_TIMEOUT_MS = 30_000;

/** Polls `read` until `done` holds, or fails after `deadlineMs`: the test waits for the outcome itself, not a fixed time. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, deadlineMs = 10_000): Promise<T> {
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) throw new Error(`Still not there after ${deadlineMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The queue as the next page would find it. */
export const queued = () => new ActivityQueue(10_000).list();

const started: Tracker[] = [];

/** A tracker on the real companion; stopped by `resetTracking`. */
export function startTestTracker(options: Partial<TrackerOptions> = {}): Tracker {
  const tracker = startTracker({ apiBase: server(), trackerKey: TRACKER_KEY, autoTags: false, ...options });
  started.push(tracker);
  return tracker;
}

/** Stops every tracker a test started and forgets the cookie, the queue, the data layer and the fixtures. */
export async function resetTracking(): Promise<void> {
  for (const tracker of started.splice(0)) tracker.stop();
  clearProfileCookie();
  await new ActivityQueue(10_000).clear();
  delete window.discoveryLayer;
  document.querySelectorAll('[data-test-fixture]').forEach((element) => element.remove());
}

/** Puts HTML into the page, marked so that `resetTracking` removes it. */
export function fixture(html: string, parent: Element = document.body): Element {
  const holder = document.createElement('div');
  holder.setAttribute('data-test-fixture', '');
  holder.innerHTML = html;
  parent.append(holder);
  return holder;
}
