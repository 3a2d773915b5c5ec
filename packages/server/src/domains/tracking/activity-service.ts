/**
 * The activity service every API shares: records activities durably, resolves the one profile behind
 * an identity, and answers the aggregates that recommendations, search and autocomplete read.
 */
import { randomBytes } from 'node:crypto';
import type { ServerDeps } from '../../apis/api-module.js';
import type { LoggedActivity, LoggedRecommendation, LogRecord } from './activity-record.js';
import type { CoOccurrenceKind, RelatedItem } from './co-occurrence.js';
import type { Interactions } from './interactions.js';
import { DAY_MS, type PopularItem } from './popularity.js';
import type { IdentityClaims, Profile, ResolvedProfile } from './profiles.js';
import { readHistoryPage, type HistoryPageResult } from './history-pages.js';
import { matchesHistoryFilters, type HistoryFilters } from './profile-history.js';
import { RecentKeys } from './recent-keys.js';
import type { QuerySpelling, QuerySuggestion } from './search-queries.js';
import { TenantActivities, type RebuildStats } from './tenant-activities.js';

/** What an API hands over: a validated activity for a resolved profile, before the server stamps it. */
export type NewActivity = Omit<LoggedActivity, 'kind' | 'id' | 'tenant' | 'receivedAt'>;

export interface RecordedActivity {
  activity: LoggedActivity;
  /** True when the client key was seen before: the earlier activity is returned and nothing was logged. */
  duplicate: boolean;
}

export type ServiceDeps = Pick<ServerDeps, 'config' | 'store' | 'eventLogs' | 'clock' | 'logger' | 'onClose'>;

/** Extra aggregates (analytics) folded from every durable record, at start-up replay and as records arrive. */
export type ActivityFold = (tenantId: string, record: LogRecord) => void;

/** Told of every search request (they are not logged): query analytics. */
export type SearchListener = (tenantId: string, query: string, at: number, resultCount: number, spelling: QuerySpelling | undefined) => void;

/** Revisions whose changed items are remembered for `changedItemsSince`. */
const CHANGE_LOG = 256;

export class ActivityService {
  private readonly tenants = new Map<string, TenantActivities>();
  private readonly deps: ServiceDeps;
  private readonly idPrefix = randomBytes(6).toString('base64url');
  private sequence = 0;
  /** Bumped whenever a tenant's aggregates change, so readers may cache answers until the next activity. */
  private readonly revisions = new Map<string, number>();
  /** Per tenant, the items each recent revision touched (the last CHANGE_LOG revisions), for incremental readers. */
  private readonly changes = new Map<string, { revision: number; items: string[] }[]>();
  private retentionTimer: NodeJS.Timeout | undefined;
  /** Metrics: told how long each durable append took. */
  private onAppend: ((seconds: number, records: number) => void) | undefined;

  private readonly recordedListeners: ((activity: LoggedActivity) => void)[] = [];

  private constructor(deps: ServiceDeps) {
    this.deps = deps;
  }

  /** Opens every tenant's log and rebuilds its aggregates; the logs are flushed and closed on shutdown. */
  static async open(deps: ServiceDeps, options: { folds?: ActivityFold[]; onAppend?: (seconds: number, records: number) => void } = {}): Promise<ActivityService> {
    const service = new ActivityService(deps);
    service.onAppend = options.onAppend;
    const { retentionDays } = deps.config.activityLog;
    const recentKeys = new RecentKeys();
    deps.onClose(() => service.close());
    for (const tenant of deps.config.tenants) {
      const started = performance.now();
      const { state, stats } = await TenantActivities.open({
        tenant: tenant.id,
        store: deps.store,
        eventLogs: deps.eventLogs,
        retentionMs: retentionDays * DAY_MS,
        now: deps.clock.now(),
        recentKeys,
        folds: options.folds,
      });
      service.tenants.set(tenant.id, state);
      service.logRebuild(tenant.id, stats, performance.now() - started);
    }
    // Hourly is plenty for a retention counted in days; unref'd so that it never keeps a process alive.
    service.retentionTimer = setInterval(() => {
      service.applyRetention().catch((error: unknown) => deps.logger.error({ err: error }, 'activity log retention failed'));
    }, 60 * 60 * 1000);
    service.retentionTimer.unref();
    return service;
  }

  /** Drops closed segments older than the configured retention; runs at start and every hour. */
  async applyRetention(): Promise<string[]> {
    const cutoff = this.deps.clock.now() - this.deps.config.activityLog.retentionDays * DAY_MS;
    const dropped: string[] = [];
    for (const [tenantId, state] of this.tenants) {
      const names = await state.dropSegmentsBefore(cutoff);
      if (names.length > 0) this.deps.logger.info({ tenant: tenantId, segments: names }, 'activity log segments past retention dropped');
      dropped.push(...names);
    }
    return dropped;
  }

  /**
   * Logs activities as one durable group (all or none), then folds them into the aggregates. A retry
   * of an activity whose first send is still being written waits for that write and answers with its
   * outcome: acknowledging it sooner would lose it to a crash before the first write reaches the disk.
   */
  async recordActivities(tenantId: string, inputs: readonly NewActivity[]): Promise<RecordedActivity[]> {
    const state = this.tenant(tenantId);
    const receivedAt = this.deps.clock.now();
    const results: Array<RecordedActivity | Promise<RecordedActivity>> = [];
    const fresh: LoggedActivity[] = [];
    const reserved: string[] = [];
    let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
    const written = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    // Nobody may be waiting on it when the append fails; the failure still reaches this caller below.
    written.catch(() => undefined);
    for (const input of inputs) {
      const seen = input.clientKey === undefined ? undefined : state.recentKeys.get(tenantId, input.clientKey);
      const activity: LoggedActivity = { kind: 'activity', id: this.nextId(), tenant: tenantId, receivedAt, ...input };
      if (seen !== undefined) {
        results.push(seen instanceof Promise ? seen.then((earlier) => ({ activity: earlier, duplicate: true })) : { activity: seen, duplicate: true });
        continue;
      }
      if (input.clientKey !== undefined) {
        const durable = written.then(() => activity);
        durable.catch(() => undefined);
        state.recentKeys.reserve(tenantId, input.clientKey, durable);
        reserved.push(input.clientKey);
      }
      fresh.push(activity);
      results.push({ activity, duplicate: false });
    }
    const appendStarted = performance.now();
    try {
      await state.log.append(fresh);
      if (fresh.length > 0) this.onAppend?.((performance.now() - appendStarted) / 1000, fresh.length);
    } catch (error) {
      for (const key of reserved) state.recentKeys.release(tenantId, key);
      settle!.reject(error);
      throw error;
    }
    settle!.resolve();
    for (const activity of fresh) state.fold(activity);
    for (const activity of fresh) for (const listener of this.recordedListeners) listener(activity);
    if (fresh.length > 0) {
      const revision = this.revision(tenantId) + 1;
      this.revisions.set(tenantId, revision);
      let log = this.changes.get(tenantId);
      if (log === undefined) this.changes.set(tenantId, (log = []));
      log.push({ revision, items: fresh.filter((a) => a.type !== 'page').map((a) => a.itemId) });
      if (log.length > CHANGE_LOG) log.shift();
    }
    return Promise.all(results);
  }

  /**
   * Items whose aggregates changed after `revision`, or undefined when that revision is too old to
   * know (the reader then recomputes from scratch).
   */
  changedItemsSince(tenantId: string, revision: number): string[] | undefined {
    const current = this.revision(tenantId);
    if (revision === current) return [];
    const log = this.changes.get(tenantId) ?? [];
    if (revision > current || log.length === 0 || log[0]!.revision > revision + 1) return undefined;
    const items: string[] = [];
    for (const change of log) if (change.revision > revision) items.push(...change.items);
    return items;
  }

  /** Changes after every recorded activity of the tenant (and only then). */
  revision(tenantId: string): number {
    return this.revisions.get(tenantId) ?? 0;
  }

  /** Finds or creates the profile behind these identities, merging anonymous profiles they join. */
  async resolveProfile(tenantId: string, claims: IdentityClaims): Promise<ResolvedProfile> {
    const state = this.tenant(tenantId);
    const resolved = await state.profiles.resolve(claims, this.deps.clock.now());
    if (resolved.merged.length > 0) state.followMerges(resolved.profile.id, resolved.merged);
    return resolved;
  }

  /** The profile for a profile id, identity-repository id, datasource id or anonymous session id, without creating one. */
  findProfile(
    tenantId: string,
    ref: { profileId?: string; repository?: string; datasource?: string; userId?: string; sessionId?: string },
  ): Profile | undefined {
    const profiles = this.tenant(tenantId).profiles;
    if (ref.profileId !== undefined) return profiles.get(ref.profileId);
    if (ref.sessionId !== undefined) return profiles.find({ sessionId: ref.sessionId });
    if (ref.userId === undefined) return undefined;
    if (ref.repository !== undefined) return profiles.find({ identities: { [ref.repository]: ref.userId } });
    if (ref.datasource !== undefined) return profiles.find({ datasources: [{ id: ref.datasource, original_id: ref.userId }] });
    return undefined;
  }

  /** A profile's activities, newest first (the most recent 500 are kept in memory). */
  history(tenantId: string, profileId: string, filters: HistoryFilters & { type?: string; verb?: string } = {}): LoggedActivity[] {
    const state = this.tenant(tenantId);
    const lists: HistoryFilters = {
      ...(filters.types ?? filters.type) === undefined ? {} : { types: filters.types ?? [filters.type!] },
      ...(filters.verbs ?? filters.verb) === undefined ? {} : { verbs: filters.verbs ?? [filters.verb!] },
    };
    return state.history.list(state.profiles.canonicalId(profileId)).filter((a) => matchesHistoryFilters(a, lists));
  }

  /** One page of a profile's whole history (see history-pages.ts): past the newest 500 it is read from the log. */
  historyPage(tenantId: string, profileId: string, filters: HistoryFilters, range: { offset: number; limit: number }): Promise<HistoryPageResult> {
    const state = this.tenant(tenantId);
    return readHistoryPage(state, state.profiles.canonicalId(profileId), filters, range);
  }

  /** Distinct items a profile touched recently, newest first, with the verb of the latest touch. */
  recentItems(tenantId: string, profileId: string, limit = 20): Array<{ itemId: string; verb: string; timestamp: number }> {
    const seen = new Set<string>();
    const out: Array<{ itemId: string; verb: string; timestamp: number }> = [];
    for (const activity of this.history(tenantId, profileId)) {
      if (activity.type === 'page' || activity.type === 'widget' || seen.has(activity.itemId)) continue;
      seen.add(activity.itemId);
      out.push({ itemId: activity.itemId, verb: activity.verb, timestamp: activity.timestamp });
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Items by popularity, weighted with the tenant's verb weights. */
  popularity(tenantId: string, options: { verbs?: readonly string[]; sinceDays?: number; limit?: number } = {}): PopularItem[] {
    const weights = this.tenantConfig(tenantId).verbWeights;
    return this.tenant(tenantId).popularity.top({
      verbs: options.verbs ?? Object.keys(weights),
      weights,
      sinceDays: options.sinceDays ?? 30,
      now: this.deps.clock.now(),
      limit: options.limit ?? 50,
    });
  }

  /** The same scores as `popularity`, for chosen items only. */
  popularityOf(tenantId: string, itemIds: readonly string[], options: { verbs?: readonly string[]; sinceDays?: number } = {}): Map<string, number> {
    const weights = this.tenantConfig(tenantId).verbWeights;
    const popularity = this.tenant(tenantId).popularity;
    const query = { verbs: options.verbs ?? Object.keys(weights), weights, sinceDays: options.sinceDays ?? 30, now: this.deps.clock.now() };
    return new Map(itemIds.map((id) => [id, popularity.scoreOf(id, query)]));
  }

  /** Items met with `itemId` in visits or orders, best first; equal scores go to the item `tieBreak` rates higher. */
  coOccurring(tenantId: string, itemId: string, kind: CoOccurrenceKind, limit = 20, tieBreak?: (itemId: string) => number): RelatedItem[] {
    return this.tenant(tenantId).coOccurrence.related(kind, itemId, limit, tieBreak);
  }

  /** Who touched which product (compact, live): the recommendation model trains from it and reads shoppers' rows. */
  interactions(tenantId: string): Interactions {
    return this.tenant(tenantId).interactions;
  }

  /** The profile id activities are kept under (after merges). */
  canonicalProfileId(tenantId: string, profileId: string): string {
    return this.tenant(tenantId).profiles.canonicalId(profileId);
  }

  /**
   * For the search API: counts a query with its number of results and how its words matched. Kept in
   * memory, not logged: a search is not a shopper activity, and a disk write per search request would
   * cost more than the search (the results page view the storefront sends is logged durably).
   */
  recordSearch(tenantId: string, query: string, resultCount: number, spelling?: QuerySpelling): void {
    const at = this.deps.clock.now();
    this.tenant(tenantId).searches.recordSearch(query, at, resultCount, spelling);
    for (const listener of this.searchListeners) listener(tenantId, query, at, resultCount, spelling);
  }

  private readonly searchListeners: SearchListener[] = [];

  onSearch(listener: SearchListener): void {
    this.searchListeners.push(listener);
  }

  /** Calls `listener` with each newly recorded activity once it is durable (search analytics counts clicks and conversions). */
  onRecorded(listener: (activity: LoggedActivity) => void): void {
    this.recordedListeners.push(listener);
  }

  /** Search counts kept by search analytics, restored at start: searches are not logged, so the log cannot give them back. */
  restoreSearches(tenantId: string, query: string, at: number, count: number): void {
    this.tenant(tenantId).searches.restoreSearches(query, at, count);
  }

  /** Autocomplete's candidates: earlier queries starting with `prefix`, most viewed within the window first. */
  suggestQueries(tenantId: string, prefix: string, options: { sinceDays?: number; limit?: number; minShoppers?: number; accept?: (candidate: QuerySuggestion) => boolean } = {}): QuerySuggestion[] {
    return this.tenant(tenantId).searches.suggest(prefix, {
      now: this.deps.clock.now(),
      sinceDays: options.sinceDays ?? 7,
      limit: options.limit ?? 10,
      minShoppers: options.minShoppers,
      accept: options.accept,
    });
  }

  /** Logs one recommendation id on a line of its own (with `info`); the recommendation API reserves blocks instead. */
  async registerRecommendation(tenantId: string, id: string, info: Record<string, unknown> = {}): Promise<void> {
    await this.appendRecommendation(tenantId, { kind: 'recommendation', tenant: tenantId, receivedAt: this.deps.clock.now(), id, info });
  }

  /**
   * For the recommendation API: logs a block of recommendation ids (`formatRecommendationId(prefix, n)`
   * for first ≤ n ≤ last) before any of them is handed out, so that clicks on them can be checked.
   */
  async reserveRecommendationIds(tenantId: string, ids: { prefix: string; first: number; last: number }): Promise<void> {
    await this.appendRecommendation(tenantId, { kind: 'recommendation', tenant: tenantId, receivedAt: this.deps.clock.now(), ids });
  }

  private async appendRecommendation(tenantId: string, record: LoggedRecommendation): Promise<void> {
    const state = this.tenant(tenantId);
    await state.log.append([record]);
    state.fold(record);
  }

  /** Undefined unless this id was issued (or reserved) for the tenant; see RecommendationLedger.find. */
  findRecommendation(tenantId: string, id: string): Record<string, unknown> | undefined {
    return this.tenant(tenantId).recommendations.find(id);
  }

  async close(): Promise<void> {
    clearInterval(this.retentionTimer);
    for (const state of this.tenants.values()) await state.log.close();
  }

  private tenant(tenantId: string): TenantActivities {
    const state = this.tenants.get(tenantId);
    if (state === undefined) throw new Error(`No activity state for tenant "${tenantId}"`);
    return state;
  }

  private tenantConfig(tenantId: string) {
    const tenant = this.deps.config.tenants.find((t) => t.id === tenantId);
    if (tenant === undefined) throw new Error(`No tenant "${tenantId}"`);
    return tenant;
  }

  private nextId(): string {
    return `a_${this.idPrefix}${(this.sequence++).toString(36)}`;
  }

  private logRebuild(tenantId: string, stats: RebuildStats, ms: number): void {
    this.deps.logger.info({ tenant: tenantId, ...stats, ms: Math.round(ms) }, 'activity aggregates rebuilt from the log');
    if (stats.skipped > 0) this.deps.logger.warn({ tenant: tenantId, skipped: stats.skipped }, 'unreadable activity log lines skipped');
  }
}
