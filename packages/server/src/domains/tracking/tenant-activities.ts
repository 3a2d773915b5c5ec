/** One tenant's activity state: its log, its profiles and the aggregates folded from both. */
import type { DocumentStore } from '../../platform/store/document-store.js';
import type { EventLog, EventLogs } from '../../platform/event-log/event-log.js';
import { RecommendationLedger } from './recommendation-ledger.js';
import { isLogRecord, UNATTRIBUTED, type LoggedActivity, type LogRecord } from './activity-record.js';
import { CoOccurrence } from './co-occurrence.js';
import { Interactions } from './interactions.js';
import { Popularity } from './popularity.js';
import { ProfileDirectory } from './profiles.js';
import { ProfileHistory } from './profile-history.js';
import { RecentKeys } from './recent-keys.js';
import { SearchQueries } from './search-queries.js';

const ORDER_VERBS = new Set(['buy', 'purchase']);
/** The stored `type` of a widget impression: neither a page view nor a product view. */
export const IMPRESSION_TYPE = 'widget';

export interface RebuildStats {
  records: number;
  skipped: number;
  expired: number;
  droppedSegments: string[];
}

export class TenantActivities {
  readonly tenant: string;
  readonly log: EventLog;
  readonly profiles: ProfileDirectory;
  readonly popularity = new Popularity();
  readonly coOccurrence = new CoOccurrence();
  readonly history = new ProfileHistory();
  readonly interactions = new Interactions();
  readonly searches = new SearchQueries();
  readonly recommendations = new RecommendationLedger();
  readonly recentKeys: RecentKeys;

  private constructor(tenant: string, log: EventLog, profiles: ProfileDirectory, recentKeys: RecentKeys) {
    this.tenant = tenant;
    this.log = log;
    this.profiles = profiles;
    this.recentKeys = recentKeys;
  }

  static async open(options: {
    tenant: string;
    store: DocumentStore;
    eventLogs: EventLogs;
    retentionMs: number;
    now: number;
    recentKeys: RecentKeys;
    folds?: ReadonlyArray<(tenantId: string, record: LogRecord) => void>;
  }): Promise<{ state: TenantActivities; stats: RebuildStats }> {
    const log = await options.eventLogs.open(options.tenant, { timeField: 'receivedAt' });
    const profiles = await ProfileDirectory.open(options.store, options.tenant);
    const state = new TenantActivities(options.tenant, log, profiles, options.recentKeys);
    state.extraFolds = options.folds ?? [];
    const stats = await state.rebuild(options.now - options.retentionMs);
    return { state, stats };
  }

  /** Folds every logged record newer than `cutoff` into the aggregates, then drops segments wholly older than it. */
  private async rebuild(cutoff: number): Promise<RebuildStats> {
    let expired = 0;
    const { records, skipped } = await this.log.replay((value) => {
      if (!isLogRecord(value)) return;
      if (value.receivedAt < cutoff) {
        expired++;
        return;
      }
      this.fold(value);
    });
    const droppedSegments = await this.dropSegmentsBefore(cutoff);
    return { records, skipped, expired, droppedSegments };
  }

  /** Deletes closed segments whose newest record is older than `cutoff`; the aggregates forget them at the next start. */
  dropSegmentsBefore(cutoff: number): Promise<string[]> {
    return this.log.dropBefore(cutoff);
  }

  private extraFolds: ReadonlyArray<(tenantId: string, record: LogRecord) => void> = [];

  /** Updates every aggregate with one durable record. */
  fold(record: LogRecord): void {
    for (const extra of this.extraFolds) extra(this.tenant, record);
    if (record.kind === 'recommendation') {
      this.recommendations.fold(record);
      return;
    }
    const activity: LoggedActivity = record;
    this.recentKeys.remember(activity);
    const attributed = activity.profileId !== UNATTRIBUTED;
    const profileId = this.profiles.canonicalId(activity.profileId);
    if (attributed) this.history.add(profileId, activity);
    if (activity.type === 'page') {
      if (activity.query !== undefined) this.searches.recordView(activity.query, activity.timestamp, profileId);
      return;
    }
    // A widget impression says nothing about the products on it (see collect-api.ts).
    if (activity.type === IMPRESSION_TYPE) return;
    this.popularity.add(activity.verb, activity.itemId, activity.timestamp);
    if (attributed) this.coOccurrence.addVisitItem(profileId, activity.itemId, activity.timestamp);
    if (attributed && activity.type === 'product') this.interactions.add(profileId, activity.verb, activity.itemId, activity.timestamp);
    if (ORDER_VERBS.has(activity.verb)) {
      // Without an order id, one shopper's purchases close together in time make one order.
      if (activity.orderId !== undefined) this.coOccurrence.addOrderItem(activity.orderId, activity.itemId, activity.timestamp);
      else if (attributed) this.coOccurrence.addPurchaseWithoutOrder(profileId, activity.itemId, activity.timestamp);
    }
  }

  /** Moves what was kept under merged anonymous profiles to the profile they joined. */
  followMerges(into: string, merged: readonly string[]): void {
    for (const from of merged) {
      this.history.merge(from, into);
      this.coOccurrence.mergeProfile(from, into);
      this.interactions.merge(from, into);
    }
  }
}
