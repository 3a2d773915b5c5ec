/**
 * What recommendations fold from the activity log, per tenant: popularity by verb and day, items met
 * together in visits and orders, and who touched which product (the model's training rows). Tracking replays the log through it at start-up and feeds it
 * every new durable record (it is handed to tracking as an `ActivityAggregate` by the composition root).
 *
 * Readers may cache an answer until `revision` moves: it moves after every live append of activities,
 * and `changedItemsSince` names the items touched since a recent revision, for incremental readers.
 */
import type { LoadedConfig } from '../../platform/config/load.js';
import type { Clock } from '../../platform/clock.js';
import { runAtOnce } from '../../platform/sliced-work.js';
import type { ActivityAggregate, SnapshotPart } from '../tracking/activity-aggregate.js';
import type { LoggedActivity, LogRecord } from '../tracking/activity-record.js';
import { IMPRESSION_TYPE } from '../tracking/tenant-activities.js';
import { CoOccurrence, type CoOccurrenceKind, type PairChunk, type RelatedItem } from './co-occurrence.js';
import { Interactions, type InteractionChunk } from './interactions.js';
import { Popularity, type PopularItem } from './popularity.js';
import { isPurchase } from '../tracking/verbs.js';

/** A tenant whose newest activity is older than this is replaying a history: its windows end there. */
const HISTORY_AFTER_MS = 30 * 24 * 60 * 60 * 1000;
/** Revisions whose changed items are remembered for `changedItemsSince`. */
const CHANGE_LOG = 256;
/**
 * Distinct item ids counted per tenant. Activities name items the public chooses, and every id costs
 * memory in popularity, co-occurrence and interactions: past this, activities of new ids count nowhere
 * (a catalog this size is far beyond the ones the bench measures; a flood of made-up ids is not).
 */
export const MAX_COUNTED_ITEMS = 1_000_000;

class TenantAggregates {
  readonly popularity: Popularity;
  readonly coOccurrence = new CoOccurrence();
  readonly interactions = new Interactions();
  /** Item ids counted so far (at most MAX_COUNTED_ITEMS). */
  readonly items = new Set<string>();
  revision = 0;
  /** Time of the newest activity folded (0: none yet): popularity windows end there when it is over 30 days old. */
  newest = 0;
  /** The items each recent revision touched (the last CHANGE_LOG revisions). */
  readonly changes: { revision: number; items: string[] }[] = [];
  /** While a snapshot is restored: the items in their saved order, which binary chunks name by number. */
  restoring: string[] = [];

  constructor(now: () => number) {
    this.popularity = new Popularity(now);
  }
}

/** The first byte of a binary chunk of this part says what follows. */
const INTERACTION_ROWS = 1;
const POPULARITY = 2;

/** One chunk of a tenant's saved aggregates: JSON, or binary (interaction rows, popularity) led by a byte saying which. The change log is not saved: readers' caches do not outlive a process. */
type SavedChunk = Buffer | { newest: number } | { items: string[] } | { coOccurrence: [CoOccurrenceKind, PairChunk] } | { interactions: InteractionChunk } | { ledger: unknown };

export class RecommendationAggregates implements ActivityAggregate {
  private readonly tenants = new Map<string, TenantAggregates>();

  private readonly maxItems: number;

  constructor(private readonly deps: { config: Pick<LoadedConfig, 'tenants'>; clock: Clock; maxItems?: number }) {
    this.maxItems = deps.maxItems ?? MAX_COUNTED_ITEMS;
  }

  readonly snapshot: SnapshotPart = {
    name: 'recommendations',
    version: 5,
    save: (tenantId) => this.save(tenantId),
    restore: (tenantId, chunk) => {
      const state = this.tenant(tenantId);
      const saved = chunk as SavedChunk;
      if (saved instanceof Uint8Array) {
        const body = saved.subarray(1);
        if (saved[0] === INTERACTION_ROWS) state.interactions.restore(body);
        else if (saved[0] === POPULARITY) state.popularity.restore(body, state.restoring);
        else throw new Error(`an unknown recommendations snapshot chunk (${saved[0]})`);
      } else if ('newest' in saved) state.newest = saved.newest;
      else if ('items' in saved) {
        for (const itemId of saved.items) state.items.add(itemId);
        state.restoring.push(...saved.items);
      }
      else if ('coOccurrence' in saved) state.coOccurrence.restore(saved.coOccurrence);
      else if ('interactions' in saved) state.interactions.restore(saved.interactions);
      // Otherwise a ledger of recommendation ids, saved by earlier versions: ids are signed now (tracking/response-ids.ts).
    },
    clear: (tenantId) => void this.tenants.delete(tenantId),
  };

  private *save(tenantId: string): Iterable<SavedChunk> {
    const state = this.tenants.get(tenantId);
    if (state === undefined) return;
    yield { newest: state.newest };
    let items: string[] = [];
    // Each item's number in the saved list, built in the same steps as the list (in one step, it was
    // a long one for a large catalog).
    const numbers = new Map<string, number>();
    for (const itemId of state.items) {
      items.push(itemId);
      numbers.set(itemId, numbers.size);
      if (items.length >= 5_000) {
        yield { items };
        items = [];
      }
    }
    if (items.length > 0) yield { items };
    for (const popularity of state.popularity.save((itemId) => numbers.get(itemId)!)) yield Buffer.concat([Buffer.of(POPULARITY), popularity]);
    for (const coOccurrence of state.coOccurrence.save()) yield { coOccurrence };
    for (const interactions of state.interactions.save()) yield interactions instanceof Uint8Array ? Buffer.concat([Buffer.of(INTERACTION_ROWS), interactions]) : { interactions };
  }

  fold(tenantId: string, record: LogRecord, profileId: string | undefined): void {
    const state = this.tenant(tenantId);
    // Recommendation-id lines, written by earlier versions, credit nothing: ids are signed now.
    // An experiment's exposure is folded by the experiments' ledger alone.
    if (record.kind !== 'activity') return;
    const activity: LoggedActivity = record;
    if (activity.timestamp > state.newest) state.newest = activity.timestamp;
    // A page view is not about a product; a widget impression says nothing about the products on it.
    if (activity.type === 'page' || activity.type === IMPRESSION_TYPE) return;
    if (!state.items.has(activity.itemId)) {
      if (state.items.size >= this.maxItems) return;
      state.items.add(activity.itemId);
    }
    state.popularity.add(activity.verb, activity.itemId, activity.timestamp);
    if (profileId !== undefined) state.coOccurrence.addVisitItem(profileId, activity.itemId, activity.timestamp);
    if (profileId !== undefined && activity.type === 'product') state.interactions.add(profileId, activity.verb, activity.itemId, activity.timestamp);
    if (isPurchase(activity.verb)) {
      // Without an order id, one shopper's purchases close together in time make one order.
      if (activity.orderId !== undefined) state.coOccurrence.addOrderItem(activity.orderId, activity.itemId, activity.timestamp);
      else if (profileId !== undefined) state.coOccurrence.addPurchaseWithoutOrder(profileId, activity.itemId, activity.timestamp);
    }
  }

  mergeProfiles(tenantId: string, from: readonly string[], into: string): void {
    const state = this.tenant(tenantId);
    for (const merged of from) {
      state.coOccurrence.mergeProfile(merged, into);
      state.interactions.merge(merged, into);
    }
  }

  forgetProfiles(tenantId: string, profileIds: readonly string[]): void {
    const state = this.tenant(tenantId);
    for (const profileId of profileIds) {
      state.interactions.forget(profileId);
      state.coOccurrence.forgetProfile(profileId);
    }
  }

  appended(tenantId: string, records: readonly LogRecord[]): void {
    // Recommendation-id records change no aggregate a reader caches.
    if (!records.some((r) => r.kind === 'activity')) return;
    const items: string[] = [];
    for (const record of records) if (record.kind === 'activity' && record.type !== 'page') items.push(record.itemId);
    const state = this.tenant(tenantId);
    state.revision++;
    state.changes.push({ revision: state.revision, items });
    if (state.changes.length > CHANGE_LOG) state.changes.shift();
  }

  /** Changes after every live append of activities of the tenant (and only then). */
  revision(tenantId: string): number {
    return this.tenants.get(tenantId)?.revision ?? 0;
  }

  /** Items whose aggregates changed after `revision`, or undefined when that revision is too old to know (recompute from scratch). */
  changedItemsSince(tenantId: string, revision: number): string[] | undefined {
    const log = this.changeLogSince(tenantId, revision);
    if (log === undefined) return undefined;
    const items: string[] = [];
    for (const change of log) if (change.revision > revision) items.push(...change.items);
    return items;
  }

  /** How many items `changedItemsSince` would list (an item changed twice counts twice), without listing them. */
  changedCountSince(tenantId: string, revision: number): number | undefined {
    const log = this.changeLogSince(tenantId, revision);
    if (log === undefined) return undefined;
    let n = 0;
    for (const change of log) if (change.revision > revision) n += change.items.length;
    return n;
  }

  /** The tenant's change log when it reaches back to `revision` (empty when nothing changed since), else undefined. */
  private changeLogSince(tenantId: string, revision: number): readonly { revision: number; items: string[] }[] | undefined {
    const state = this.tenant(tenantId);
    if (revision === state.revision) return [];
    const log = state.changes;
    if (revision > state.revision || log.length === 0 || log[0]!.revision > revision + 1) return undefined;
    return log;
  }

  /** Items by popularity, weighted with the tenant's verb weights. */
  popularity(tenantId: string, options: { verbs?: readonly string[]; sinceDays?: number; limit?: number } = {}): PopularItem[] {
    return runAtOnce(this.popularityRanking(tenantId, options));
  }

  /** `popularity` a step at a time (Popularity.ranking), for runInSlices. */
  popularityRanking(tenantId: string, options: { verbs?: readonly string[]; sinceDays?: number; limit?: number } = {}): Generator<unknown, PopularItem[]> {
    const weights = this.verbWeights(tenantId);
    return this.tenant(tenantId).popularity.ranking({
      verbs: options.verbs ?? Object.keys(weights),
      weights,
      sinceDays: options.sinceDays ?? 30,
      now: this.windowEnd(tenantId),
      limit: options.limit ?? 50,
    });
  }

  /**
   * Where "the last N days" of popularity end: now, or the tenant's newest activity when that is more
   * than 30 days old. Data that old is a history (imported with its original dates, or a shop long
   * closed), and counting back from now would leave every list empty; its latest days are shown
   * instead. A live shop that is merely quiet keeps windows that end now, so a week without activity
   * still means an empty trending list.
   */
  windowEnd(tenantId: string): number {
    const now = this.deps.clock.now();
    const newest = this.tenants.get(tenantId)?.newest ?? 0;
    return newest > 0 && now - newest > HISTORY_AFTER_MS ? newest : now;
  }

  /** The same scores as `popularity`, for chosen items only. */
  popularityOf(tenantId: string, itemIds: readonly string[], options: { verbs?: readonly string[]; sinceDays?: number } = {}): Map<string, number> {
    const weights = this.verbWeights(tenantId);
    const popularity = this.tenant(tenantId).popularity;
    const query = { verbs: options.verbs ?? Object.keys(weights), weights, sinceDays: options.sinceDays ?? 30, now: this.windowEnd(tenantId) };
    return new Map(itemIds.map((id) => [id, popularity.scoreOf(id, query)]));
  }

  /** Items met with `itemId` in visits or orders, best first; equal scores go to the item `tieBreak` rates higher. */
  coOccurring(tenantId: string, itemId: string, kind: CoOccurrenceKind, limit = 20, tieBreak?: (itemId: string) => number): RelatedItem[] {
    return this.tenant(tenantId).coOccurrence.related(kind, itemId, limit, tieBreak);
  }

  /** Items bought with the seeds, picked by greedy coverage of the seeds' latest orders (basket-cover.ts), best first. */
  basketCompletion(tenantId: string, seedIds: readonly string[], limit: number, tieBreak?: (itemId: string) => number): RelatedItem[] {
    return this.tenant(tenantId).coOccurrence.coveringOrders(seedIds, limit, tieBreak);
  }

  /** How often `itemId` was met with each of `others` (those never met with it are left out), scaled as `coOccurring` scores. */
  coOccurringWith(tenantId: string, itemId: string, kind: CoOccurrenceKind, others: Iterable<string>): Map<string, number> {
    return this.tenant(tenantId).coOccurrence.countsWith(kind, itemId, others);
  }

  /** Who touched which product (compact, live): the recommendation model trains from it and reads shoppers' rows. */
  interactions(tenantId: string): Interactions {
    return this.tenant(tenantId).interactions;
  }

  private tenant(tenantId: string): TenantAggregates {
    let state = this.tenants.get(tenantId);
    if (state === undefined) this.tenants.set(tenantId, (state = new TenantAggregates(() => this.deps.clock.now())));
    return state;
  }

  private verbWeights(tenantId: string): Record<string, number> {
    const tenant = this.deps.config.tenants.find((t) => t.id === tenantId);
    if (tenant === undefined) throw new Error(`No tenant "${tenantId}"`);
    return tenant.verbWeights;
  }
}
