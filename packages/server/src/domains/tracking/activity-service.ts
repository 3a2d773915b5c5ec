/**
 * Tracking: records activities durably (one group commit per call), resolves the one profile behind
 * an identity, and keeps each profile's history. What other domains derive from activities (search's
 * query statistics, recommendations' popularity and co-occurrence, analytics) they fold themselves:
 * they are handed over as `ActivityAggregate`s when the service opens (activity-aggregate.ts).
 */
import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../../platform/service-context.js';
import { FoldLagGuard } from './fold-lag-guard.js';
import { DAY_MS } from '../../platform/clock.js';
import type { ActivityAggregate } from './activity-aggregate.js';
import type { LoggedActivity, LoggedErasure, LoggedExposure } from './activity-record.js';
import type { IdentityClaims, Profile, ResolvedProfile } from './profiles.js';
import type { HistoryPageResult } from './history-pages.js';
import { matchesHistoryFilters, type HistoryFilters } from './profile-history.js';
import { RecentKeys } from './recent-keys.js';
import { erasePerson, exportPerson, removeNoticeWhenDue, type ErasureSummary, type PersonExport } from './person-data.js';
import { TenantActivities, type RebuildStats } from './tenant-activities.js';
import { ResponseIds } from './response-ids.js';

/** How long a shared idempotency claim lasts: well past any client's retries of one send. */
const CLAIM_TTL_MS = 60 * 60 * 1000;

/** What an API hands over: a validated activity for a resolved profile, before the server stamps it. */
export type NewActivity = Omit<LoggedActivity, 'kind' | 'id' | 'tenant' | 'receivedAt'>;

export interface RecordedActivity {
  activity: LoggedActivity;
  /** True when the client key was seen before: the earlier activity is returned and nothing was logged. */
  duplicate: boolean;
}

export type ServiceDeps = Pick<ServiceContext, 'config' | 'store' | 'eventLogs' | 'blobs' | 'clock' | 'logger' | 'onClose' | 'sharedClaims' | 'foldLagBoard' | 'ingestOnly'>;

export class ActivityService {
  private readonly tenants = new Map<string, TenantActivities>();
  /** How each tenant's state was rebuilt at start (from a snapshot or the whole log). */
  private readonly rebuilds = new Map<string, RebuildStats>();
  private readonly deps: ServiceDeps;
  private readonly idPrefix = randomBytes(6).toString('base64url');
  private sequence = 0;
  private retentionTimer: NodeJS.Timeout | undefined;
  /** Metrics: told how long each durable append took. */
  private onAppend: ((seconds: number, records: number) => void) | undefined;

  private readonly recordedListeners: ((activity: LoggedActivity) => void)[] = [];
  /** Search and recommendations name their answers with these; activities naming one are checked against them. */
  readonly responseIds: ResponseIds;
  private readonly lagGuard: FoldLagGuard;

  private constructor(deps: ServiceDeps) {
    this.deps = deps;
    this.responseIds = new ResponseIds(deps.store);
    const ingestOnly = deps.ingestOnly === true;
    this.lagGuard = new FoldLagGuard({ bound: deps.config.activityLog.foldLag, board: deps.foldLagBoard, ingestOnly, owner: this.idPrefix, now: () => deps.clock.now(), tenants: () => this.tenants.values() });
  }

  /** Opens every tenant's log and rebuilds its aggregates; the logs are flushed and closed on shutdown. */
  static async open(deps: ServiceDeps, options: { aggregates?: ActivityAggregate[]; onAppend?: (seconds: number, records: number) => void } = {}): Promise<ActivityService> {
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
        blobs: deps.blobs,
        logger: deps.logger,
        snapshots: deps.config.activityLog.snapshots,
        historyInMemory: deps.config.activityLog.historyInMemory,
        retentionMs: retentionDays * DAY_MS,
        now: () => deps.clock.now(),
        recentKeys,
        aggregates: options.aggregates ?? [],
        keysOnly: deps.ingestOnly === true,
        onErasedElsewhere: (state, notice) => service.erasedElsewhere(state, notice),
      });
      state.profiles.nameAnonymousBy((sessionId) => service.responseIds.anonymousProfileId(tenant.id, sessionId));
      service.tenants.set(tenant.id, state);
      service.rebuilds.set(tenant.id, stats);
      service.logRebuild(tenant.id, stats, performance.now() - started);
    }
    // Hourly is plenty for a retention counted in days; unref'd so that it never keeps a process alive.
    service.retentionTimer = setInterval(() => {
      service.applyRetention().catch((error: unknown) => deps.logger.error({ err: error }, 'activity log retention failed'));
    }, 60 * 60 * 1000);
    service.retentionTimer.unref();
    service.lagGuard.start();
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
   *
   * `foldAfterAnswer` (the collection APIs): the caller is answered once the group is durable, and the
   * fold follows in the same turn of the event loop (tenant-activities.ts `foldLater`). Such callers
   * ask `refuseWhileBehind` first, before they resolve profiles, so that a refusal changes nothing.
   * Without it (in-process callers that read what they wrote at once) the fold happens before the answer.
   */
  async recordActivities(tenantId: string, given: readonly NewActivity[], from?: { address: string }, options: { foldAfterAnswer?: boolean } = {}): Promise<RecordedActivity[]> {
    const state = this.tenant(tenantId);
    // Where they came from, as a keyed digest (response-ids.ts `originOf`): the sender's network, not the address.
    const origin = from === undefined || from.address === '' ? undefined : await this.responseIds.originOf(tenantId, from.address);
    const inputs = await this.attributed(tenantId, origin === undefined ? given : given.map((input) => ({ ...input, origin })));
    const claimed = await this.claimElsewhere(state, inputs);
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
    let position: string | void;
    try {
      position = await state.log.append(fresh);
      if (fresh.length > 0) this.onAppend?.((performance.now() - appendStarted) / 1000, fresh.length);
    } catch (error) {
      for (const key of reserved) state.recentKeys.release(tenantId, key);
      void this.deps.sharedClaims?.release(claimed.map((key) => `${tenantId}:${key}`), this.idPrefix);
      settle!.reject(error);
      throw error;
    }
    settle!.resolve();
    const announce = () => {
      for (const activity of fresh) for (const listener of this.recordedListeners) listener(activity);
    };
    if (options.foldAfterAnswer === true) state.foldLater(fresh, position, announce);
    else {
      state.settle();
      for (const activity of fresh) state.fold(activity, position);
      if (fresh.length > 0) state.appended(fresh);
      announce();
    }
    return Promise.all(results);
  }

  /** 429 while the tenant's fold (or, ingest-only, a serving process's) is further behind than `activityLog.foldLag` allows (fold-lag-guard.ts); the collection APIs ask before they resolve profiles. */
  refuseWhileBehind(tenantId: string): void {
    this.lagGuard.refuse(this.tenant(tenantId));
  }

  /** For /metrics: acknowledged activities not folded yet (every tenant), and the age of the oldest, or how far behind another process's appends a shared log's fold is, in seconds. */
  foldLag(): { records: number; seconds: number } {
    let records = 0;
    let seconds = 0;
    const now = this.deps.clock.now();
    for (const state of this.tenants.values()) {
      const lag = state.foldLag();
      records += lag.records;
      if (lag.oldestReceivedAt !== undefined) seconds = Math.max(seconds, (now - lag.oldestReceivedAt) / 1000);
      seconds = Math.max(seconds, state.followLagMs / 1000);
    }
    return { records, seconds };
  }

  /**
   * With several processes (Redis): takes the shared claim of each idempotency key this process has
   * not seen, and for a key another process holds, waits (at most 2 s) for that process's record to
   * arrive through the followed log, so that the loop below answers the retry as a duplicate. Resolves
   * with the keys claimed here (given back if the append fails).
   */
  private async claimElsewhere(state: TenantActivities, inputs: readonly NewActivity[]): Promise<string[]> {
    const claims = this.deps.sharedClaims;
    if (claims === undefined) return [];
    const unseen = [...new Set(inputs.flatMap((input) => (input.clientKey !== undefined && state.recentKeys.get(state.tenant, input.clientKey) === undefined ? [input.clientKey] : [])))];
    if (unseen.length === 0) return [];
    const others = await claims.claim(unseen.map((key) => `${state.tenant}:${key}`), this.idPrefix, CLAIM_TTL_MS);
    if (others === undefined) return [];
    const waiting = unseen.filter((key) => others.has(`${state.tenant}:${key}`));
    const deadline = Date.now() + 2000;
    while (waiting.some((key) => state.recentKeys.get(state.tenant, key) === undefined) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return unseen.filter((key) => !others.has(`${state.tenant}:${key}`));
  }

  /** Finds or creates the profile behind these identities, merging anonymous profiles they join. */
  async resolveProfile(tenantId: string, claims: IdentityClaims): Promise<ResolvedProfile> {
    const state = this.tenant(tenantId);
    const resolved = await state.profiles.resolve(claims, this.deps.clock.now());
    if (resolved.merged.length > 0) state.followMerges(resolved.profile.id, resolved.merged);
    return resolved;
  }

  /** How many profiles the tenant holds (benchmarks and reports; a pass over every shard). */
  profileCount(tenantId: string): number {
    return this.tenant(tenantId).profiles.count();
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

  /**
   * Brings a returning shopper's newest activities back into memory when they left it (evicted past
   * `historyInMemory`), from the log segments the index names, so that `history` has them again.
   */
  readBackHistory(tenantId: string, profileId: string): Promise<void> {
    const state = this.tenant(tenantId);
    return state.pages.readBack(state.profiles.canonicalId(profileId));
  }

  /**
   * A profile's activities newest first, as many as memory holds (at most 500; see profile-history.ts;
   * `readBackHistory` first for those that left it), or the newest `limit` of them: only those are parsed.
   */
  history(tenantId: string, profileId: string, filters: HistoryFilters & { type?: string; verb?: string } = {}, limit = Infinity): LoggedActivity[] {
    const lists: HistoryFilters = {
      ...(filters.types ?? filters.type) === undefined ? {} : { types: filters.types ?? [filters.type!] },
      ...(filters.verbs ?? filters.verb) === undefined ? {} : { verbs: filters.verbs ?? [filters.verb!] },
    };
    return this.historyWhere(tenantId, profileId, (a) => matchesHistoryFilters(a, lists), limit);
  }

  /** The newest `limit` activities of the profile memory holds that `accept` takes, newest first (`accept` sees them in that order). */
  historyWhere(tenantId: string, profileId: string, accept: (activity: LoggedActivity) => boolean, limit: number): LoggedActivity[] {
    const state = this.tenant(tenantId);
    state.settle();
    return state.history.newest(state.profiles.canonicalId(profileId), accept, limit);
  }

  /**
   * A page of what was recorded under `profileId` and the ids merged into it (see history-pages.ts: past
   * what memory holds it is read from the log): the person's whole history when the id is the person's
   * own profile, and only that browser's share of it when the id was merged into another one (the public
   * history endpoint must not show a claimed person's other devices).
   */
  historyPage(tenantId: string, profileId: string, filters: HistoryFilters, range: { offset: number; limit: number }): Promise<HistoryPageResult> {
    const state = this.tenant(tenantId);
    state.settle();
    const canonical = state.profiles.canonicalId(profileId);
    if (canonical === profileId) return state.pages.page(canonical, filters, range);
    return state.pages.sharePage(canonical, state.profiles.mergedUnder(profileId), filters, range);
  }

  /** Distinct items a profile touched recently, newest first, with the verb of the latest touch. */
  recentItems(tenantId: string, profileId: string, limit = 20): Array<{ itemId: string; verb: string; timestamp: number }> {
    const seen = new Set<string>();
    const distinct = (activity: LoggedActivity) => activity.type !== 'page' && activity.type !== 'widget' && !seen.has(activity.itemId) && seen.add(activity.itemId) !== undefined;
    return this.historyWhere(tenantId, profileId, distinct, limit).map((activity) => ({ itemId: activity.itemId, verb: activity.verb, timestamp: activity.timestamp }));
  }

  /** Everything held about the person behind a profile id (see person-data.ts); undefined for an unknown id. */
  exportPerson(tenantId: string, profileId: string): Promise<PersonExport | undefined> {
    this.tenant(tenantId).settle();
    return exportPerson(this.tenant(tenantId), profileId);
  }

  /** Erases the person behind a profile id from profiles, the log and memory (see person-data.ts); undefined for an unknown id. */
  erasePerson(tenantId: string, profileId: string): Promise<ErasureSummary | undefined> {
    this.tenant(tenantId).settle();
    return erasePerson(this.tenant(tenantId), profileId, { now: this.deps.clock.now(), keepMs: this.deps.config.activityLog.erasureNoticeSeconds * 1000 });
  }

  /** Every activity that names a response or a widget gets its attribution here, whatever the sender said of it. */
  private async attributed(tenantId: string, inputs: readonly NewActivity[]): Promise<readonly NewActivity[]> {
    if (!inputs.some((a) => a.sourceId !== undefined || a.recommendationId !== undefined || a.widgetId !== undefined || a.attribution !== undefined)) return inputs;
    return Promise.all(
      inputs.map(async ({ attribution: _claimed, ...input }) => {
        const attribution = await this.responseIds.attributionOf(tenantId, input);
        return attribution === undefined ? input : { ...input, attribution };
      }),
    );
  }

  /** The profile id activities are kept under (after merges). */
  canonicalProfileId(tenantId: string, profileId: string): string {
    return this.tenant(tenantId).profiles.canonicalId(profileId);
  }

  private readonly erasedListeners: Array<(tenantId: string, profileIds: readonly string[]) => void> = [];
  /** Erasures announced elsewhere (each notice removed here too once due) that no listener heard yet, as those this start's replay met: at most the notices a log holds. */
  private readonly erasedUntold: Array<{ tenantId: string; profileIds: readonly string[] }> = [];

  private erasedElsewhere(state: TenantActivities, notice: LoggedErasure): void {
    removeNoticeWhenDue(state, notice, { now: this.deps.clock.now(), keepMs: this.deps.config.activityLog.erasureNoticeSeconds * 1000 });
    if (this.erasedListeners.length === 0) this.erasedUntold.push({ tenantId: state.tenant, profileIds: notice.profileIds });
    for (const listener of this.erasedListeners) listener(state.tenant, notice.profileIds);
  }

  /** Calls `listener` when another process sharing the log erased a person and this one forgot them (the model retrains without them); also for those met before it listened. */
  onErasedElsewhere(listener: (tenantId: string, profileIds: readonly string[]) => void): void {
    this.erasedListeners.push(listener);
    for (const { tenantId, profileIds } of this.erasedUntold.splice(0)) listener(tenantId, profileIds);
  }

  /** Calls `listener` with each newly recorded activity once it is durable (search analytics counts clicks and conversions). */
  onRecorded(listener: (activity: LoggedActivity) => void): void {
    this.recordedListeners.push(listener);
  }

  /**
   * Logs the responses experiments touched (one group commit for the call), then folds them like any
   * record, so that results come back after a restart and reach every process of a shared log.
   */
  async logExposures(tenantId: string, records: ReadonlyArray<Omit<LoggedExposure, 'kind' | 'tenant' | 'receivedAt'>>): Promise<void> {
    const state = this.tenant(tenantId);
    const receivedAt = this.deps.clock.now();
    const logged: LoggedExposure[] = records.map((record) => ({ kind: 'exposure', tenant: tenantId, receivedAt, ...record }));
    const position = await state.log.append(logged);
    state.settle();
    for (const record of logged) state.fold(record, position);
    state.appended(logged);
  }

  async close(): Promise<void> {
    clearInterval(this.retentionTimer);
    this.lagGuard.stop();
    for (const state of this.tenants.values()) {
      state.settle();
      // A claim's profile write still under way: durable before the last snapshot and the store close.
      await state.profiles.flush().catch((error: unknown) => this.deps.logger.error({ err: error, tenant: state.tenant }, 'a profile write still running at shutdown failed'));
      await state.snapshots.close();
      await state.log.close();
    }
  }

  /** How the tenant's activity state was rebuilt at start. */
  rebuildStats(tenantId: string): RebuildStats | undefined {
    return this.rebuilds.get(tenantId);
  }

  /** Writes a snapshot of every tenant's activity state now (operations, benchmarks); resolves with what each took. */
  async snapshotNow(): Promise<Array<{ tenant: string; bytes: number; ms: number; longestSliceMs: number; longestStep: { part: string; ms: number } } | undefined>> {
    const out = [];
    for (const [tenant, state] of this.tenants) {
      const stats = await state.snapshots.take('asked');
      out.push(stats === undefined ? undefined : { tenant, bytes: stats.bytes, ms: stats.ms, longestSliceMs: stats.longestSliceMs, longestStep: stats.longestStep });
    }
    return out;
  }

  private tenant(tenantId: string): TenantActivities {
    const state = this.tenants.get(tenantId);
    if (state === undefined) throw new Error(`No activity state for tenant "${tenantId}"`);
    return state;
  }

  private nextId(): string {
    return `a_${this.idPrefix}${(this.sequence++).toString(36)}`;
  }

  private logRebuild(tenantId: string, stats: RebuildStats, ms: number): void {
    if (stats.snapshotRejected !== undefined) this.deps.logger.warn({ tenant: tenantId, reason: stats.snapshotRejected }, 'activity snapshot not used; the whole log was replayed');
    const { snapshotRejected: _reason, ...figures } = stats;
    const message = stats.snapshotTakenAt === undefined ? 'activity aggregates rebuilt from the log' : 'activity aggregates restored from a snapshot and the log after it';
    this.deps.logger.info({ tenant: tenantId, ...figures, ms: Math.round(ms) }, message);
    if (stats.skipped > 0) this.deps.logger.warn({ tenant: tenantId, skipped: stats.skipped }, 'unreadable activity log lines skipped');
  }
}
