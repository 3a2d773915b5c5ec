/**
 * What shoppers do, per tenant and day, folded from the activity log as records arrive (and replayed
 * from it at start, so a restart loses nothing): activities per verb, activities per minute, and per
 * widget impressions, clicks, add-to-carts, purchases and revenue, attributed through the widget id
 * an activity names, the `sourceId` of the recommendation answer it came from, or an earlier click on
 * the same item from a widget by the same profile. Only activities whose response ids verified are
 * credited; those naming a widget without a verified id are counted apart, as `unverified`.
 */
import { isVerifiedAttribution, type LoggedActivity, type LogRecord } from '../tracking/activity-record.js';
import type { ActivityAggregate, SnapshotPart } from '../tracking/activity-aggregate.js';
import { BoundedLru } from '../../platform/collections/bounded-lru.js';
import { IMPRESSION_TYPE } from '../tracking/tenant-activities.js';

import type { WidgetCounts } from '@discovery-kit/protocol';
import { DAY_MS } from '../../platform/clock.js';
import { isPurchase } from '../tracking/verbs.js';
const MINUTE_MS = 60_000;
/** Minutes of per-minute counts kept: one day. */
export const MINUTES_KEPT = 1_440;
const ATTRIBUTION_ENTRIES = 20_000;

/** A widget's counts of one day, as the admin API answers them (the protocol's type; revenue in cents). */
export type { WidgetCounts } from '@discovery-kit/protocol';

export interface DayCounts {
  activities: number;
  verbs: Record<string, number>;
  widgets: Map<string, WidgetCounts>;
  /** The currency of the day's latest purchase that named one. */
  currency?: string;
  /** What activities naming a widget but no verified response id would have added to it: shown apart, credited nowhere. */
  unverified: Map<string, WidgetCounts>;
}

const CLICK_VERBS = new Set(['click', 'click-on-reco']);
const CART_VERBS = new Set(['add-to-cart']);

export function emptyWidgetCounts(): WidgetCounts {
  return { impressions: 0, clicks: 0, addToCarts: 0, purchases: 0, revenue: 0 };
}

function emptyDay(): DayCounts {
  return { activities: 0, verbs: Object.create(null) as Record<string, number>, widgets: new Map(), unverified: new Map() };
}

/** Adds one activity to a widget's counts, by its verb. */
function countInto(widgets: Map<string, WidgetCounts>, widgetId: string, record: LoggedActivity): void {
  let widget = widgets.get(widgetId);
  if (widget === undefined) widgets.set(widgetId, (widget = emptyWidgetCounts()));
  const verb = record.verb;
  // Impressions are stored as their own type; logs written before that hold them as page views.
  if (verb === 'view' && (record.type === IMPRESSION_TYPE || record.type === 'page')) widget.impressions++;
  else if (CLICK_VERBS.has(verb)) widget.clicks++;
  else if (CART_VERBS.has(verb)) widget.addToCarts++;
  else if (isPurchase(verb)) {
    widget.purchases++;
    widget.revenue += (record.price ?? 0) * (record.quantity ?? 1);
  }
}

class TenantWidgetAnalytics {
  readonly days = new Map<number, DayCounts>();
  readonly minutes = new Map<number, number>();
  /** sourceId of a recommendation answer → the widget that showed it. */
  readonly sources = new BoundedLru<string>(ATTRIBUTION_ENTRIES);
  /** `<profile>|<item>` → the widget the profile last clicked the item in. */
  readonly clicked = new BoundedLru<string>(ATTRIBUTION_ENTRIES);
}

export interface WidgetAnalyticsOptions {
  now: () => number;
  retentionDays: number;
  /** Whether `widgetId` is a widget of this tenant: only those are counted (the public could send any id). */
  isWidgetOf: (tenantId: string, widgetId: string) => boolean;
}

type SavedChunk =
  | { days: Array<[number, number, Record<string, number>, Array<[string, WidgetCounts]>, (string | null | undefined)?, Array<[string, WidgetCounts]>?]>; minutes: Array<[number, number]> }
  | { sources: Array<[string, string]>; clicked: Array<[string, string]> };

export class WidgetAnalytics implements ActivityAggregate {
  private readonly tenants = new Map<string, TenantWidgetAnalytics>();

  constructor(private readonly options: WidgetAnalyticsOptions) {}

  readonly snapshot: SnapshotPart = {
    name: 'widget-analytics',
    version: 1,
    save: (tenantId) => this.save(tenantId),
    restore: (tenantId, chunk) => {
      const state = this.tenant(tenantId);
      const saved = chunk as SavedChunk;
      if ('days' in saved) {
        for (const [day, activities, verbs, widgets, currency, unverified] of saved.days) {
          state.days.set(day, { activities, verbs: Object.assign(Object.create(null) as Record<string, number>, verbs), widgets: new Map(widgets), unverified: new Map(unverified ?? []), ...(typeof currency === 'string' ? { currency } : {}) });
        }
        for (const [minute, count] of saved.minutes) state.minutes.set(minute, count);
        return;
      }
      for (const [key, widgetId] of saved.sources) state.sources.set(key, widgetId);
      for (const [key, widgetId] of saved.clicked) state.clicked.set(key, widgetId);
    },
    clear: (tenantId) => void this.tenants.delete(tenantId),
  };

  private *save(tenantId: string): Iterable<SavedChunk> {
    const state = this.tenants.get(tenantId);
    if (state === undefined) return;
    const copy = (widgets: Map<string, WidgetCounts>) => [...widgets].map(([id, w]) => [id, { ...w }] as [string, WidgetCounts]);
    yield { days: [...state.days].map(([day, c]) => [day, c.activities, { ...c.verbs }, copy(c.widgets), c.currency ?? null, copy(c.unverified)]), minutes: [...state.minutes] };
    yield { sources: [...state.sources.entries()], clicked: [...state.clicked.entries()] };
  }

  /** Registered on the activity service: called once per durable record. */
  readonly fold = (tenantId: string, record: LogRecord): void => {
    if (record.kind !== 'activity') return;
    const state = this.tenant(tenantId);
    // By when it happened, not when it arrived: an import of last year's history is not "this minute".
    const minute = Math.floor(record.timestamp / MINUTE_MS);
    const now = this.options.now();
    if (minute > Math.floor(now / MINUTE_MS) - MINUTES_KEPT && minute <= Math.floor(now / MINUTE_MS) + 1) {
      state.minutes.set(minute, (state.minutes.get(minute) ?? 0) + 1);
      if (state.minutes.size > MINUTES_KEPT + 60) this.pruneMinutes(state, now);
    }
    const day = Math.floor(record.timestamp / DAY_MS);
    const today = Math.floor(now / DAY_MS);
    // A client's clock may say anything: days outside the retention window are not kept.
    if (day < today - this.options.retentionDays || day > today + 1) return;
    let counts = state.days.get(day);
    if (counts === undefined) {
      state.days.set(day, (counts = emptyDay()));
      for (const old of state.days.keys()) if (old < today - this.options.retentionDays) state.days.delete(old);
    }
    counts.activities++;
    if (isPurchase(record.verb) && record.currency !== undefined && /^[A-Z]{3}$/.test(record.currency)) counts.currency = record.currency;
    if (counts.verbs[record.verb] !== undefined || Object.keys(counts.verbs).length < 64) counts.verbs[record.verb] = (counts.verbs[record.verb] ?? 0) + 1;

    const named = record.widgetId !== undefined && this.options.isWidgetOf(tenantId, record.widgetId) ? record.widgetId : undefined;
    // Set on every activity naming a response or a widget since ids are signed; one logged before is unverified too.
    const namesAny = record.widgetId !== undefined || record.sourceId !== undefined || record.recommendationId !== undefined;
    if (namesAny && !isVerifiedAttribution(record)) {
      if (named !== undefined) countInto(counts.unverified, named, record);
      return;
    }
    const pair = `${record.profileId}|${record.itemId}`;
    let widgetId = named;
    if (widgetId === undefined && record.sourceId !== undefined) widgetId = state.sources.get(record.sourceId);
    if (widgetId !== undefined && record.sourceId !== undefined) state.sources.set(record.sourceId, widgetId);
    if (widgetId === undefined && (CART_VERBS.has(record.verb) || isPurchase(record.verb))) widgetId = state.clicked.get(pair);
    if (widgetId === undefined) return;
    countInto(counts.widgets, widgetId, record);
    if (CLICK_VERBS.has(record.verb) && record.type !== 'page') state.clicked.set(pair, widgetId);
  };

  /** Day counts from `fromDay` to `toDay` (day numbers since the epoch), oldest first, including empty days. */
  daysBetween(tenantId: string, fromDay: number, toDay: number): Array<{ day: number; counts: DayCounts }> {
    const state = this.tenant(tenantId);
    const out: Array<{ day: number; counts: DayCounts }> = [];
    for (let day = fromDay; day <= toDay; day++) out.push({ day, counts: state.days.get(day) ?? emptyDay() });
    return out;
  }

  /** Activities per minute (by their own time) over the last `minutes` minutes, oldest first. */
  perMinute(tenantId: string, minutes: number): Array<{ minute: number; count: number }> {
    const state = this.tenant(tenantId);
    const last = Math.floor(this.options.now() / MINUTE_MS);
    const out: Array<{ minute: number; count: number }> = [];
    for (let minute = last - minutes + 1; minute <= last; minute++) out.push({ minute, count: state.minutes.get(minute) ?? 0 });
    return out;
  }

  private pruneMinutes(state: TenantWidgetAnalytics, now: number): void {
    const oldest = Math.floor(now / MINUTE_MS) - MINUTES_KEPT;
    for (const minute of state.minutes.keys()) if (minute <= oldest) state.minutes.delete(minute);
  }

  /** Erasure: which widget each of these profiles clicked items in is forgotten; the day counts stay, without a person. */
  forgetProfiles(tenantId: string, profileIds: readonly string[]): void {
    const state = this.tenants.get(tenantId);
    if (state !== undefined) for (const profileId of profileIds) state.clicked.deletePrefix(`${profileId}|`);
  }

  private tenant(tenantId: string): TenantWidgetAnalytics {
    let state = this.tenants.get(tenantId);
    if (state === undefined) this.tenants.set(tenantId, (state = new TenantWidgetAnalytics()));
    return state;
  }
}
