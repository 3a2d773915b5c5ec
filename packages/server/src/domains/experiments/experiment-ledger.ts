/**
 * What experiment results are computed from, folded from the activity log: each exposure (a response
 * an experiment touched) and the clicks, add-to-carts and purchases after it. Registered as an
 * activity aggregate, so it is rebuilt by replay, snapshotted, erased with the shopper and the same
 * on every process of a shared log.
 */
import type { ActivityAggregate, SnapshotPart } from '../tracking/activity-aggregate.js';
import type { LoggedActivity, LoggedExposure, LogRecord } from '../tracking/activity-record.js';
import { DAY_MS } from '../../platform/clock.js';
import { creditsResponse } from './attribution.js';
import { BoundedMap } from '../../platform/collections/bounded-map.js';

/** Shoppers one experiment follows; newer ones are left out and the results say `capped`. */
export const MAX_USERS = 250_000;
/** Response ids one experiment remembers for crediting clicks (the oldest are forgotten first). */
export const MAX_RESPONSES = 500_000;
/** A click credits a response served at most this long before it. */
export const ATTRIBUTION_MS = DAY_MS;

/**
 * Clicks on a response whose exposure has not been folded yet, per tenant. The exposure is logged after
 * the answer, so on a shared log another process's click on it can come first; it credits the response
 * when the exposure arrives. Kept this many at most, and this long (the log's order differs from the
 * answers' by a commit or a follower's read, not by minutes).
 */
const EARLY_CLICKS = 4_096;
const EARLY_CLICK_MS = 5 * 60_000;

const CLICK_VERBS = new Set(['click', 'click-on-reco']);
const CART_VERBS = new Set(['add-to-cart']);
const PURCHASE_VERBS = new Set(['purchase', 'buy']);

/** One day of one shopper: the day number (UTC days since the epoch), exposures, credited clicks, revenue. */
export type UserDay = [day: number, exposures: number, clicks: number, revenue: number];

export interface UserFigures {
  variant: string;
  firstAt: number;
  exposures: number;
  clicks: number;
  addedToCart: boolean;
  /** When the shopper's first purchase after the first exposure was received (the conversion's day); none: not converted. */
  convertedAt?: number;
  revenue: number;
  /**
   * The same figures by day, days ascending: the daily chart is summed from the shoppers the results
   * keep, so it counts what the table counts (outliers and erased shoppers left out of both). A shopper
   * holds one entry per day they did something, at most the experiment's length in days.
   */
  days: UserDay[];
}

/** The shopper's entry for the day of `at`, made in its place when the shopper has none yet. */
function dayOf(user: UserFigures, at: number): UserDay {
  const day = Math.floor(at / DAY_MS);
  let i = user.days.length;
  // Records arrive in about time order: the day is the last one, or one near the end.
  while (i > 0 && user.days[i - 1]![0] > day) i--;
  if (i > 0 && user.days[i - 1]![0] === day) return user.days[i - 1]!;
  const entry: UserDay = [day, 0, 0, 0];
  user.days.splice(i, 0, entry);
  return entry;
}

/** The response an id names: an item's `-<position>` taken off. */
const responseOf = (id: string) => id.replace(/-\d{1,6}$/, '');

/** A click at `at` on the response of `entry`: counted once per response, within ATTRIBUTION_MS of it. */
function creditEntry(entry: ResponseEntry, user: UserFigures, at: number): void {
  if (entry.clicked || at - entry.at > ATTRIBUTION_MS) return;
  entry.clicked = true;
  user.clicks++;
  dayOf(user, at)[2]++;
}

interface ResponseEntry {
  shopper: string;
  at: number;
  clicked: boolean;
}

export class ExperimentFigures {
  readonly users = new Map<string, UserFigures>();
  /** Profile id → shopper id, so that activities recorded under the profile find the shopper's exposures. */
  readonly profiles = new Map<string, string>();
  readonly responses = new Map<string, ResponseEntry>();
  capped = false;
}

/** The window an experiment counts activities in (started, and stopped when it was): from its definition. */
export type ExperimentWindow = (tenantId: string, experimentId: string) => { startedAt: number; stoppedAt?: number } | undefined;

type SavedChunk =
  | { experiment: string; capped: boolean; users: Array<[string, UserFigures]>; profiles: Array<[string, string]> }
  | { experiment: string; responses: Array<[string, ResponseEntry]> };

export class ExperimentLedger implements ActivityAggregate {
  private readonly tenants = new Map<string, Map<string, ExperimentFigures>>();
  /** Tenant → response id (without an item's position) → the early click's time (see EARLY_CLICKS). */
  private readonly earlyClicks = new Map<string, BoundedMap<string, number>>();

  constructor(private readonly windowOf: ExperimentWindow) {}

  figures(tenantId: string, experimentId: string): ExperimentFigures | undefined {
    return this.tenants.get(tenantId)?.get(experimentId);
  }

  /** Keeps only the figures of these experiments (the others were deleted). */
  retain(tenantId: string, experimentIds: ReadonlySet<string>): void {
    const experiments = this.tenants.get(tenantId);
    for (const id of experiments?.keys() ?? []) if (!experimentIds.has(id)) experiments!.delete(id);
  }

  fold(tenantId: string, record: LogRecord, profileId: string | undefined): void {
    if (record.kind === 'exposure') this.expose(tenantId, record);
    else if (record.kind === 'activity') this.follow(tenantId, record, profileId);
  }

  private expose(tenantId: string, record: LoggedExposure): void {
    // Exposures of an experiment deleted since (still in the log until retention drops them) are not kept.
    if (this.windowOf(tenantId, record.experiment) === undefined) return;
    let experiments = this.tenants.get(tenantId);
    if (experiments === undefined) this.tenants.set(tenantId, (experiments = new Map()));
    let figures = experiments.get(record.experiment);
    if (figures === undefined) experiments.set(record.experiment, (figures = new ExperimentFigures()));
    let user = figures.users.get(record.shopper);
    if (user === undefined) {
      if (figures.users.size >= MAX_USERS) {
        figures.capped = true;
        return;
      }
      figures.users.set(record.shopper, (user = { variant: record.variant, firstAt: record.receivedAt, exposures: 0, clicks: 0, addedToCart: false, revenue: 0, days: [] }));
    }
    user.exposures++;
    dayOf(user, record.receivedAt)[1]++;
    if (record.profileId !== record.shopper) figures.profiles.set(record.profileId, record.shopper);
    const entry: ResponseEntry = { shopper: record.shopper, at: record.receivedAt, clicked: false };
    figures.responses.set(record.responseId, entry);
    for (const [id, entry] of figures.responses) {
      if (figures.responses.size <= MAX_RESPONSES && entry.at >= record.receivedAt - ATTRIBUTION_MS) break;
      figures.responses.delete(id);
    }
    const early = this.earlyClicks.get(tenantId);
    const clickedAt = early?.get(record.responseId);
    if (clickedAt === undefined) return;
    early!.delete(record.responseId);
    const window = this.windowOf(tenantId, record.experiment)!;
    if (clickedAt < window.startedAt || (window.stoppedAt !== undefined && clickedAt > window.stoppedAt)) return;
    if (record.receivedAt - clickedAt > EARLY_CLICK_MS) return;
    creditEntry(entry, user, clickedAt);
  }

  private follow(tenantId: string, activity: LoggedActivity, profileId: string | undefined): void {
    const experiments = this.tenants.get(tenantId);
    if (experiments === undefined) return;
    const verb = activity.verb;
    const click = CLICK_VERBS.has(verb);
    if (!click && !CART_VERBS.has(verb) && !PURCHASE_VERBS.has(verb)) return;
    // A click credits the response its `sourceId` (or click-on-reco's `recommendationId`) names, if its id verified.
    const named = click && creditsResponse(activity) ? (activity.sourceId ?? activity.recommendationId) : undefined;
    let known = false;
    for (const [experimentId, figures] of experiments) {
      const window = this.windowOf(tenantId, experimentId);
      if (window === undefined || activity.receivedAt < window.startedAt || (window.stoppedAt !== undefined && activity.receivedAt > window.stoppedAt)) continue;
      if (!click) this.shop(figures, activity, profileId);
      else if (named !== undefined) known = this.credit(figures, named, activity.receivedAt) || known;
    }
    // A click naming a response no experiment has an exposure of (yet): kept a while for the exposure to arrive.
    if (named !== undefined && !known) {
      let early = this.earlyClicks.get(tenantId);
      if (early === undefined) this.earlyClicks.set(tenantId, (early = new BoundedMap(EARLY_CLICKS)));
      early.set(responseOf(named), activity.receivedAt);
    }
  }

  /** Credits the response `named` once; returns whether the experiment knows the response (credited now or before). */
  private credit(figures: ExperimentFigures, named: string, at: number): boolean {
    const entry = figures.responses.get(named) ?? figures.responses.get(responseOf(named));
    if (entry === undefined) return false;
    const user = figures.users.get(entry.shopper);
    if (user !== undefined) creditEntry(entry, user, at);
    return true;
  }

  private shop(figures: ExperimentFigures, activity: LoggedActivity, profileId: string | undefined): void {
    const user = this.userOf(figures, activity, profileId);
    if (user === undefined || activity.receivedAt < user.firstAt) return;
    if (CART_VERBS.has(activity.verb)) {
      user.addedToCart = true;
      return;
    }
    const revenue = (activity.price ?? 0) * (activity.quantity ?? 1);
    user.convertedAt ??= activity.receivedAt;
    user.revenue += revenue;
    dayOf(user, activity.receivedAt)[3] += revenue;
  }

  /** The shopper an activity belongs to: by its profile (as merged now, or as recorded), else its session id. */
  private userOf(figures: ExperimentFigures, activity: LoggedActivity, profileId: string | undefined): UserFigures | undefined {
    for (const key of [profileId, activity.profileId, activity.sessionId]) {
      if (key === undefined || key === '') continue;
      const shopper = figures.users.has(key) ? key : figures.profiles.get(key);
      const user = shopper === undefined ? undefined : figures.users.get(shopper);
      if (user === undefined) continue;
      // A session first served before it had a profile: the profile now finds the shopper (merges, erasure).
      if (profileId !== undefined && profileId !== shopper && !figures.profiles.has(profileId)) figures.profiles.set(profileId, shopper!);
      return user;
    }
    return undefined;
  }

  mergeProfiles(tenantId: string, from: readonly string[], into: string): void {
    for (const figures of this.tenants.get(tenantId)?.values() ?? []) {
      for (const id of from) {
        const shopper = figures.users.has(id) ? id : figures.profiles.get(id);
        if (shopper !== undefined && !figures.profiles.has(into) && !figures.users.has(into)) figures.profiles.set(into, shopper);
      }
    }
  }

  /** Erasure: the person's shopper entries (and the responses served to them) are forgotten. */
  forgetProfiles(tenantId: string, profileIds: readonly string[]): void {
    for (const figures of this.tenants.get(tenantId)?.values() ?? []) {
      for (const id of profileIds) {
        const shopper = figures.users.has(id) ? id : figures.profiles.get(id);
        figures.profiles.delete(id);
        if (shopper === undefined) continue;
        figures.users.delete(shopper);
        for (const [responseId, entry] of figures.responses) if (entry.shopper === shopper) figures.responses.delete(responseId);
      }
    }
  }

  readonly snapshot: SnapshotPart = {
    name: 'experiments',
    // 2: each shopper holds their days (1 kept one day series for everyone, outliers included).
    version: 2,
    save: (tenantId) => this.save(tenantId),
    restore: (tenantId, chunk) => this.restore(tenantId, chunk as SavedChunk),
    clear: (tenantId) => {
      this.tenants.delete(tenantId);
      this.earlyClicks.delete(tenantId);
    },
  };

  private *save(tenantId: string): Iterable<SavedChunk> {
    for (const [experiment, figures] of this.tenants.get(tenantId) ?? []) {
      yield* slices([...figures.users], (users, i) => ({ experiment, capped: figures.capped, users, profiles: i === 0 ? [...figures.profiles] : [] }));
      yield* slices([...figures.responses], (responses) => ({ experiment, responses }));
    }
  }

  private restore(tenantId: string, chunk: SavedChunk): void {
    if (this.windowOf(tenantId, chunk.experiment) === undefined) return;
    let experiments = this.tenants.get(tenantId);
    if (experiments === undefined) this.tenants.set(tenantId, (experiments = new Map()));
    let figures = experiments.get(chunk.experiment);
    if (figures === undefined) experiments.set(chunk.experiment, (figures = new ExperimentFigures()));
    if ('users' in chunk) {
      figures.capped ||= chunk.capped;
      for (const [id, user] of chunk.users) figures.users.set(id, user);
      for (const [profile, shopper] of chunk.profiles) figures.profiles.set(profile, shopper);
    } else {
      for (const [id, entry] of chunk.responses) figures.responses.set(id, entry);
    }
  }
}

/** A list as chunks of a few thousand entries (snapshot writers yield between chunks); at least one chunk. */
function* slices<T, C>(list: T[], chunk: (part: T[], index: number) => C): Iterable<C> {
  const size = 5_000;
  for (let at = 0, i = 0; at === 0 || at < list.length; at += size, i++) yield chunk(list.slice(at, at + size), i);
}
