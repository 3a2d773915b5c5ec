/** `startTracker`: the profile cookie, the durable queue and the automatic tags put together, under consent. */
import type { ActivityIntent } from '@discovery-kit/protocol';
import { activityFromIntent, purchaseIntents, type ActivityUser, type TrackedActivity, type PurchaseOrder } from './activity.js';
import { ActivityQueue } from './activity-queue.js';
import { listenForTags, pageIntents } from './auto-tags.js';
import { connectDataLayer } from './data-layer.js';
import { batchBodies, MAX_BATCH, postBatch } from './delivery.js';
import { identify } from './identify.js';
import { clearProfileCookie, readProfileCookie, writeProfileCookie, type ProfileCookieOptions } from './profile-cookie.js';

export interface TrackerOptions {
  /** The Discovery Kit server's origin and base path, such as `https://discovery.shop.example`. */
  apiBase: string;
  trackerKey: string;
  /** Where the collection API is mounted; default `${apiBase}/collect`. */
  collectUrl?: string;
  /** `required`: no cookie, no storage and no send until `grantConsent()`. Default `granted`. */
  consent?: 'required' | 'granted';
  /** Name, domain and lifetime of the profile cookie (default `dk_pid`, this host, 395 days). */
  cookie?: ProfileCookieOptions;
  /** Page views and clicks from the page's tags and the elements' events; default true. */
  autoTags?: boolean;
  /** Most activities kept waiting; past it the oldest are dropped. Default 500. */
  maxQueue?: number;
  /** Identity repository `login` names when given none; default `customer-id`. */
  identityRepository?: string;
  /** Milliseconds to gather activities into one request; default 300. */
  batchDelay?: number;
}

export interface Tracker {
  /** The profile id in the cookie; undefined before consent, after logout and before the first identify. */
  profileId(): string | undefined;
  /** Resolves with the profile id once identify answered (undefined without consent or when it failed). */
  ready(): Promise<string | undefined>;
  track(intent: ActivityIntent): void;
  /** One `purchase` activity per product, each with `metadata.orderId`; decimal prices become cents. */
  purchase(order: PurchaseOrder): void;
  /** Later activities name the customer (`user.identities[repository]`), so the server joins this profile to theirs. */
  login(customerId: string, repository?: string): void;
  /** Forgets the customer and the cookie: the next activity starts a new anonymous profile. */
  logout(): void;
  grantConsent(): void;
  /** Stops tracking, deletes the cookie and empties the queue. */
  revokeConsent(): void;
  /** Sends what is queued now; resolves when that attempt ends, delivered or not (what failed stays queued). */
  flush(): Promise<void>;
  /** Removes every listener and timer; the queue stays for the next page. */
  stop(): void;
}

/**
 * A server that is down is asked once per try (one console error each): every 1, 2, 4, then 5 s for
 * the first minute, so a restarted server is found within seconds, then every 30 s; a sign of life
 * (online, focus, a shopper's action) tries at once.
 */
const QUICK_BACKOFF_MS = 5000;
const QUICK_FOR_MS = 60_000;
const MAX_BACKOFF_MS = 30_000;
/** During a back-off, a new activity tries at once when the last try is this old: a shopper's click finds a server that came back. */
const PROMPT_MS = 2000;
/** When another tab holds some of the queue, how soon to look again. */
const RECHECK_MS = 2000;
const DATA_LAYER_COMMANDS = ['track', 'purchase', 'login', 'logout', 'grantConsent', 'revokeConsent'];
const ignore = () => undefined;
const warn = (error: unknown) => console.warn('Discovery Kit: the activity queue failed.', error);

export function startTracker(options: TrackerOptions): Tracker {
  const apiBase = options.apiBase.replace(/\/+$/, '');
  const collectUrl = `${(options.collectUrl ?? `${apiBase}/collect`).replace(/\/+$/, '')}/${encodeURIComponent(options.trackerKey)}`;
  const maxQueue = options.maxQueue ?? 500;
  const batchDelay = options.batchDelay ?? 300;
  const queue = new ActivityQueue(maxQueue);
  /** Activities made before consent: in memory only, dropped on revoke or when the page goes. */
  let held: TrackedActivity[] = [];
  /** This tab's activities not yet known delivered, for the synchronous beacon on pagehide. */
  const unsent = new Map<string, TrackedActivity>();
  let consented = options.consent !== 'required';
  let stopped = false;
  let profile: string | undefined;
  let identities: Record<string, string> | undefined;
  /** This page's identify, in flight or answered; reset by a failure, logout and revoke. */
  let identified: Promise<string> | undefined;
  let confirmed = false;
  /** Bumped by logout and revoke, so that an identify answer arriving later is ignored. */
  let epoch = 0;
  let writes: Promise<unknown> = Promise.resolve();
  let sending: Promise<void> | undefined;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;
  let backoff = 0;
  let lastTry = 0;
  /** During a back-off, no try before this time (a failed identify at start must not be asked again at once). */
  let retryAt = 0;
  let failingSince = 0;
  /** Activities this page already beaconed (hidden, then pagehide: once is enough). */
  const beaconed = new Set<string>();

  const currentUser = (): ActivityUser | undefined =>
    profile || identities ? { ...(profile ? { profileId: profile } : {}), ...(identities ? { identities } : {}) } : undefined;

  function ensureProfile(): Promise<string> {
    const asked = epoch;
    identified ??= identify(apiBase, options.trackerKey, profile).then(
      (answer) => {
        if (asked !== epoch) throw new Error('superseded');
        // A stale cookie gets a new id; writing every visit also renews the lifetime.
        profile = answer.profileId;
        confirmed = true;
        writeProfileCookie(profile, options.cookie);
        return profile;
      },
      (error: unknown) => {
        if (asked === epoch) {
          identified = undefined;
          failed();
        }
        throw error;
      },
    );
    return identified;
  }

  function forgetProfile(): void {
    epoch++;
    profile = undefined;
    confirmed = false;
    identified = undefined;
    clearProfileCookie(options.cookie);
  }

  function track(intent: ActivityIntent): void {
    if (stopped) return;
    const activity = activityFromIntent(intent, location.pathname + location.search);
    if (!consented) {
      held.push(activity);
      if (held.length > maxQueue) held.shift();
      return;
    }
    enqueue(activity);
  }

  function enqueue(activity: TrackedActivity): void {
    // Before this page's identify answered, the user is added when sending, so a stale cookie is not used.
    if (confirmed) activity.user = currentUser();
    unsent.set(activity.id, activity);
    if (unsent.size > maxQueue) unsent.delete(unsent.keys().next().value!);
    writes = writes.then(() => queue.add(activity)).catch(warn);
    // While backing off, new activities wait for the retry rather than hammering a server that is down.
    if (backoff === 0 || Date.now() - lastTry > PROMPT_MS) {
      retryAt = 0;
      schedule(batchDelay);
    }
  }

  /** One failed try (identify or a batch): the next waits for the back-off, with jitter. */
  function failed(): void {
    const now = Date.now();
    failingSince ||= now;
    backoff = Math.min(backoff * 2 || 1000, now - failingSince < QUICK_FOR_MS ? QUICK_BACKOFF_MS : MAX_BACKOFF_MS);
    const wait = backoff * (0.5 + Math.random() / 2);
    retryAt = now + wait;
    schedule(wait);
  }

  function schedule(delay: number): void {
    if (stopped || !consented || Date.now() + delay >= timerAt) return;
    clearTimeout(timer);
    timerAt = Date.now() + delay;
    timer = setTimeout(() => {
      timerAt = Infinity;
      void send();
    }, delay);
  }

  function send(): Promise<void> {
    if (stopped || !consented) return Promise.resolve();
    if (sending !== undefined) {
      // The running loop may have looked at the queue before the newest activity landed: go again after it.
      again = true;
      return sending;
    }
    sending = deliver().finally(() => {
      sending = undefined;
      if (again && backoff === 0) void send();
      again = false;
    });
    return sending;
  }

  /** Sends batches until the queue is empty or a send fails; a failure backs off (`failed`). */
  async function deliver(): Promise<void> {
    await writes;
    // Offline, trying is pointless: the `online` event starts the next attempt.
    if (navigator.onLine === false) return;
    // A try before the back-off ended (a timer set before the failure): one failed request per try.
    if (Date.now() < retryAt - 50) return schedule(retryAt - Date.now());
    lastTry = Date.now();
    let retryIn = 0;
    try {
      await ensureProfile();
    } catch {
      return;
    }
    try {
      while (consented && !stopped) {
        const { activities, leasedElsewhere } = await queue.take(MAX_BATCH);
        // Another tab is sending some right now: look again soon, in case its send fails and it gives them back.
        if (leasedElsewhere > 0) retryIn = RECHECK_MS;
        if (activities.length === 0) break;
        const user = currentUser();
        if (!user) throw new Error('no profile');
        const result = await postBatch(collectUrl, activities.map((activity) => (activity.user ? activity : { ...activity, user })));
        const done = [...result.delivered, ...result.refused];
        done.forEach((id) => unsent.delete(id) && beaconed.delete(id));
        await queue.remove(done);
        if (result.retry.length > 0) await queue.release(result.retry);
        // Only a refusal leaves some to retry at once; otherwise the retries wait for the back-off.
        if (result.retry.length > 0 && result.refused.length === 0) throw new Error('retry');
      }
      backoff = failingSince = retryAt = 0;
    } catch {
      return failed();
    }
    if (retryIn > 0) schedule(retryIn);
  }

  /** The page is going: send this tab's waiting activities now, synchronously. They stay queued, and a later resend is counted once. */
  function beacon(): void {
    if (stopped || !consented) return;
    const user = currentUser();
    const ready = [...unsent.values()].flatMap((activity): TrackedActivity[] =>
      beaconed.has(activity.id) ? [] : activity.user ? [activity] : user ? [{ ...activity, user }] : [],
    );
    ready.forEach((activity) => beaconed.add(activity.id));
    for (const batch of batchBodies(ready)) {
      const body = JSON.stringify(batch);
      if (!navigator.sendBeacon?.(collectUrl, body)) {
        fetch(collectUrl, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(ignore);
      }
    }
  }

  /** The network came back, or the shopper came back to the tab: a server that was down is tried now. */
  const onOnline = () => {
    backoff = retryAt = 0;
    void send();
  };
  const onBack = () => backoff > 0 && onOnline();
  // Hidden may be the last event a phone gives a tab: a beacon outlives the page. Visible again, an
  // ordinary send empties the queue of what the beacon took (a beacon gets no answer).
  const onHidden = () => (document.visibilityState === 'hidden' ? beacon() : onOnline());
  const tagPage = () => !stopped && options.autoTags !== false && pageIntents(document).forEach(track);

  const api: Tracker = {
    profileId: () => (consented ? profile : undefined),
    ready: () => (consented ? ensureProfile().catch(ignore) : Promise.resolve(undefined)),
    track,
    purchase(order) {
      if (!order || !Array.isArray(order.items)) return console.warn('Discovery Kit: purchase needs {orderId, items: [...]}.');
      purchaseIntents(order).forEach(track);
    },
    login(customerId, repository = options.identityRepository ?? 'customer-id') {
      identities = { [repository]: String(customerId) };
    },
    logout() {
      identities = undefined;
      forgetProfile();
    },
    grantConsent() {
      if (consented || stopped) return;
      consented = true;
      profile = readProfileCookie(options.cookie);
      ensureProfile().catch(ignore);
      const waiting = held;
      held = [];
      waiting.forEach(enqueue);
      schedule(batchDelay);
    },
    revokeConsent() {
      consented = false;
      identities = undefined;
      forgetProfile();
      clearTimeout(timer);
      timerAt = Infinity;
      held = [];
      unsent.clear();
      beaconed.clear();
      writes = writes.then(() => queue.clear()).catch(warn);
    },
    async flush() {
      clearTimeout(timer);
      timerAt = Infinity;
      retryAt = 0;
      await sending;
      await send();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      stopTags();
      disconnectLayer();
      removeEventListener('pagehide', beacon);
      removeEventListener('online', onOnline);
      removeEventListener('focus', onBack);
      document.removeEventListener('visibilitychange', onHidden);
    },
  };

  addEventListener('pagehide', beacon);
  addEventListener('online', onOnline);
  addEventListener('focus', onBack);
  document.addEventListener('visibilitychange', onHidden);
  const stopTags = options.autoTags === false ? ignore : listenForTags(document, track);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', tagPage, { once: true });
  else tagPage();
  const disconnectLayer = connectDataLayer(window, (name, args) => {
    if (!DATA_LAYER_COMMANDS.includes(name)) return console.warn(`Discovery Kit: unknown data layer command "${name}".`);
    (api[name as keyof Tracker] as (...args: unknown[]) => unknown)(...args);
  });
  if (consented) {
    profile = readProfileCookie(options.cookie);
    ensureProfile().catch(ignore);
    // Activities an earlier page left in the queue go out too.
    schedule(batchDelay);
  }
  return api;
}
