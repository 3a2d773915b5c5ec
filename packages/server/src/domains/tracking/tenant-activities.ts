/** One tenant's activity state: its log, its profiles and the aggregates folded from both. */
import type { DocumentStore } from '../../platform/store/document-store.js';
import type { EventLog, EventLogs, ReplayStats } from '../../platform/event-log/event-log.js';
import type { ActivityAggregate } from './activity-aggregate.js';
import { isLogRecord, UNATTRIBUTED, type LogRecord } from './activity-record.js';
import { ProfileDirectory } from './profiles.js';
import { ProfileHistory } from './profile-history.js';
import { HistoryPages } from './history-pages.js';
import { RecentKeys } from './recent-keys.js';

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
  readonly history = new ProfileHistory();
  readonly recentKeys: RecentKeys;
  /** Pages of whole histories, read from the log past what memory keeps. */
  readonly pages: HistoryPages;

  private constructor(tenant: string, log: EventLog, profiles: ProfileDirectory, recentKeys: RecentKeys) {
    this.tenant = tenant;
    this.log = log;
    this.profiles = profiles;
    this.recentKeys = recentKeys;
    this.pages = new HistoryPages(this);
  }

  static async open(options: {
    tenant: string;
    store: DocumentStore;
    eventLogs: EventLogs;
    retentionMs: number;
    now: number;
    recentKeys: RecentKeys;
    aggregates: readonly ActivityAggregate[];
  }): Promise<{ state: TenantActivities; stats: RebuildStats }> {
    const log = await options.eventLogs.open(options.tenant, { timeField: 'receivedAt' });
    const profiles = await ProfileDirectory.open(options.store, options.tenant);
    const state = new TenantActivities(options.tenant, log, profiles, options.recentKeys);
    state.aggregates = options.aggregates;
    const stats = await state.rebuild(options.now - options.retentionMs);
    return { state, stats };
  }

  /** Folds every logged record newer than `cutoff` into the aggregates, then drops segments wholly older than it. */
  private async rebuild(cutoff: number): Promise<RebuildStats> {
    let expired = 0;
    const replayed: ReplayStats & { cursor?: string } = await this.log.replay((value) => {
      if (!isLogRecord(value)) return;
      if (value.receivedAt < cutoff) {
        expired++;
        return;
      }
      this.fold(value);
    });
    const { records, skipped } = replayed;
    // A log shared with other processes (PostgreSQL): their appends are folded as they commit, as ours are.
    if (replayed.cursor !== undefined) this.log.follow?.(replayed.cursor, (values) => this.foldOthers(values));
    const droppedSegments = await this.dropSegmentsBefore(cutoff);
    return { records, skipped, expired, droppedSegments };
  }

  /** Deletes closed segments whose newest record is older than `cutoff`; the aggregates forget them at the next start. */
  dropSegmentsBefore(cutoff: number): Promise<string[]> {
    return this.log.dropBefore(cutoff);
  }

  private aggregates: readonly ActivityAggregate[] = [];

  /** Updates the profile history and every registered aggregate with one durable record. */
  fold(record: LogRecord): void {
    if (record.kind === 'recommendation') {
      for (const aggregate of this.aggregates) aggregate.fold(this.tenant, record, undefined);
      return;
    }
    this.recentKeys.remember(record);
    const attributed = record.profileId !== UNATTRIBUTED;
    const profileId = attributed ? this.profiles.canonicalId(record.profileId) : undefined;
    if (profileId !== undefined) this.history.add(profileId, record);
    for (const aggregate of this.aggregates) aggregate.fold(this.tenant, record, profileId);
  }

  /** Records another process appended to the shared log: folded and announced like a local append. */
  private foldOthers(values: readonly unknown[]): void {
    const records = values.filter(isLogRecord);
    for (const record of records) this.fold(record);
    if (records.length > 0) this.appended(records);
  }

  /** Tells the aggregates that one live append was folded. */
  appended(records: readonly LogRecord[]): void {
    for (const aggregate of this.aggregates) aggregate.appended?.(this.tenant, records);
  }

  /** Erasure: drops what memory keeps under these profile ids, here and in every aggregate. */
  forgetProfiles(profileIds: readonly string[]): void {
    for (const id of profileIds) this.history.forget(id);
    this.recentKeys.forgetProfiles(new Set(profileIds));
    this.pages.forget(new Set(profileIds));
    for (const aggregate of this.aggregates) aggregate.forgetProfiles?.(this.tenant, profileIds);
  }

  /** Moves what was kept under merged anonymous profiles to the profile they joined. */
  followMerges(into: string, merged: readonly string[]): void {
    for (const from of merged) {
      this.history.merge(from, into);
    }
    for (const aggregate of this.aggregates) aggregate.mergeProfiles?.(this.tenant, merged, into);
  }
}
