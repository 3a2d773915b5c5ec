/**
 * One tenant's activity state: its log, its profiles and the aggregates folded from both. At open it
 * restores the newest usable snapshot and replays the log after it, or replays the whole log.
 */
import type { DocumentStore } from '../../platform/store/document-store.js';
import { StaleCursorError, type EventLog, type EventLogs } from '../../platform/event-log/event-log.js';
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import type { Logger } from '../../platform/logger.js';
import type { ActivityAggregate, SnapshotPart } from './activity-aggregate.js';
import { decodeSnapshot, readSnapshotBlob } from './activity-snapshots.js';
import { SnapshotKeeper, type SnapshotPolicy } from './snapshot-keeper.js';
import { LogPositions } from './log-positions.js';
import { isLogRecord, UNATTRIBUTED, type LoggedActivity, type LoggedErasure, type LogRecord } from './activity-record.js';
import { ProfileDirectory } from './profiles.js';
import { ProfileHistory } from './profile-history.js';
import { HistoryPages } from './history-pages.js';
import { RecentKeys } from './recent-keys.js';
import { FoldQueue, type UnfoldedBatch } from './fold-queue.js';

/** The stored `type` of a widget impression: neither a page view nor a product view. */
export const IMPRESSION_TYPE = 'widget';

export interface RebuildStats {
  records: number;
  skipped: number;
  expired: number;
  droppedSegments: string[];
  /** When the state came from a snapshot: its time; the records above are those replayed after it. */
  snapshotTakenAt?: number;
  /** Why a snapshot there was not used (the whole log was replayed instead). */
  snapshotRejected?: string;
}

/** Tracking's own share of a snapshot: histories and the idempotency memory, binary chunks each led by a byte saying which. */
const TRACKING_PART_VERSION = 2;
const HISTORY_CHUNK = 1;
const KEYS_CHUNK = 2;
/** Where each profile's records are in the log (log-positions.ts); a snapshot without such chunks leaves the index distrusted. */
const POSITIONS_CHUNK = 3;
/** Anonymous profiles (profiles.ts): the log records before the cursor that would adopt them are not replayed. */
const ANONYMOUS_CHUNK = 4;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class TenantActivities {
  readonly tenant: string;
  readonly log: EventLog;
  readonly profiles: ProfileDirectory;
  readonly history: ProfileHistory;
  readonly recentKeys: RecentKeys;
  /** Pages of whole histories, read from the log past what memory keeps. */
  readonly pages: HistoryPages;
  /** Each profile id's log segments, when the log can be read by segment (the file adapter); PostgreSQL finds a profile's records through its own index. */
  readonly positions: LogPositions | undefined;

  private constructor(tenant: string, log: EventLog, profiles: ProfileDirectory, recentKeys: RecentKeys, historyInMemory: number) {
    this.tenant = tenant;
    this.history = new ProfileHistory(historyInMemory);
    this.log = log;
    this.profiles = profiles;
    this.recentKeys = recentKeys;
    this.positions = log.scansByPosition === true ? new LogPositions() : undefined;
    this.pages = new HistoryPages(this);
  }

  static async open(options: {
    tenant: string;
    store: DocumentStore;
    eventLogs: EventLogs;
    blobs: BlobStore;
    logger: Logger;
    snapshots: SnapshotPolicy;
    historyInMemory: number;
    retentionMs: number;
    now: () => number;
    recentKeys: RecentKeys;
    aggregates: readonly ActivityAggregate[];
    /** Told of each erasure notice another process appended to the shared log (the replay's too), once this process forgot the ids it names. */
    onErasedElsewhere?: (state: TenantActivities, notice: LoggedErasure) => void;
    /** An ingest-only process: an activity is folded into the idempotency memory alone (no history, no aggregates). */
    keysOnly?: boolean;
  }): Promise<{ state: TenantActivities; stats: RebuildStats }> {
    const log = await options.eventLogs.open(options.tenant, { timeField: 'receivedAt' });
    const profiles = await ProfileDirectory.open(options.store, options.tenant);
    const state = new TenantActivities(options.tenant, log, profiles, options.recentKeys, options.historyInMemory);
    state.aggregates = options.aggregates;
    state.keysOnly = options.keysOnly === true;
    state.logger = options.logger;
    state.now = options.now;
    state.onErasedElsewhere = options.onErasedElsewhere;
    // Another process's merge (shared store): what this process kept under the merged id moves too.
    profiles.onMergedElsewhere((from, into) => state.followMerges(profiles.canonicalId(into), [from]));
    const parts = [state.trackingPart(), ...options.aggregates.map((a) => a.snapshot)];
    // An aggregate that cannot be saved would miss every record before the snapshot: then none is used.
    // Nor on a log other processes append to (PostgreSQL): its cursor is the newest record this process
    // saw, and records of others committed before it may not have been folded yet, so a snapshot could
    // claim them and a restore skip them. Such a start replays the whole log (docs/scale-out.md).
    const complete = parts.every((part): part is SnapshotPart => part !== undefined) && log.follow === undefined;
    state.snapshots = new SnapshotKeeper({
      tenant: options.tenant,
      blobs: options.blobs,
      logger: options.logger,
      now: options.now,
      policy: { ...options.snapshots, enabled: options.snapshots.enabled && complete },
      parts: complete ? parts : [],
      // Appends acknowledged and not folded yet are folded first, so that the cursor matches the state.
      cursor: () => {
        state.settle();
        return log.cursor();
      },
      oldest: () => (state.oldestFolded === Infinity ? undefined : state.oldestFolded),
      hold: () => state.hold(),
      // A profile's shard write that began before the state was read must be durable before the snapshot is.
      beforeSave: () => profiles.flush(),
    });
    const stats = await state.rebuild(options.now() - options.retentionMs, complete ? parts : [], options.blobs);
    state.snapshots.started(stats.snapshotTakenAt === undefined ? Math.max(stats.records, 1) : stats.records);
    return { state, stats };
  }

  snapshots!: SnapshotKeeper;

  /** Restores the snapshot when there is a usable one, then folds every logged record after it (all of them without one) newer than `cutoff`, then drops segments wholly older than it. */
  private async rebuild(cutoff: number, parts: readonly SnapshotPart[], blobs: BlobStore): Promise<RebuildStats> {
    let expired = 0;
    // Each profile id is checked once against the shards (a hash per check), the first time a record names it.
    const checked = new Set<string>();
    const visit = (value: unknown, position: string) => {
      if (!isLogRecord(value)) return;
      if (value.receivedAt < cutoff) {
        expired++;
        return;
      }
      this.adopt(value, checked);
      this.fold(value, position);
    };
    let restored: { cursor: string; takenAt: number } | undefined;
    let snapshotRejected: string | undefined;
    let data: Buffer | undefined;
    if (parts.length > 0 && this.snapshots.enabled) {
      // Unreadable (permissions, a bad disk) is one more reason to replay the whole log, not to fail the start.
      data = await readSnapshotBlob(blobs, this.tenant).catch((error: unknown) => {
        snapshotRejected = `it could not be read (${(error as Error).message})`;
        return undefined;
      });
    }
    if (data !== undefined) {
      try {
        this.positionsRestored = false;
        const header = await decodeSnapshot(data, { tenant: this.tenant, parts, cutoff });
        restored = header;
        this.profiles.dropPromotedAnonymous();
        if (!this.positionsRestored) this.positions?.distrust();
        if (header.oldest !== null) this.oldestFolded = Math.min(this.oldestFolded, header.oldest);
      } catch (error) {
        snapshotRejected = (error as Error).message;
        for (const part of parts) part.clear(this.tenant);
      }
    }
    let replayed: { records: number; skipped: number; cursor: string } | undefined;
    if (restored !== undefined) {
      try {
        replayed = await this.log.replay(visit, { after: restored.cursor });
      } catch (error) {
        // Refused before any record was handed over: the state is the snapshot's alone, and is set aside.
        if (!(error instanceof StaleCursorError)) throw error;
        snapshotRejected = error.message;
        restored = undefined;
        this.oldestFolded = Infinity;
        for (const part of parts) part.clear(this.tenant);
      }
    }
    replayed ??= await this.log.replay(visit);
    // A log shared with other processes (PostgreSQL): their appends are folded as they commit, as ours are.
    this.log.follow?.(replayed.cursor, (values, read) => this.foldOthers(values, read.caughtUp));
    const droppedSegments = await this.dropSegmentsBefore(cutoff);
    return {
      ...replayed,
      expired,
      droppedSegments,
      ...(restored === undefined ? {} : { snapshotTakenAt: restored.takenAt }),
      ...(snapshotRejected === undefined ? {} : { snapshotRejected }),
    };
  }

  /** Whether the snapshot being restored held the positions index (one saved before it had none). */
  private positionsRestored = false;

  /** The oldest record time folded into the state (Infinity: none), saved with snapshots. */
  private oldestFolded = Infinity;

  /** Records (and merges) that arrived while a snapshot was being saved; undefined when none is. */
  private held: Array<() => void> | undefined;

  /** Stops folding until the returned function is called; what arrived meanwhile is then folded in order, a slice at a time. */
  private hold(): () => Promise<void> {
    this.held = [];
    return async () => {
      const held = this.held ?? [];
      for (let at = 0; at < held.length; at++) {
        held[at]!();
        if (at % 2_000 === 1_999) await turn();
      }
      this.held = undefined;
    };
  }

  /** Applies a change now, or after the snapshot being saved. */
  private whenLive(change: () => void): void {
    if (this.held === undefined) change();
    else this.held.push(change);
  }

  private trackingPart(): SnapshotPart {
    return {
      name: 'tracking',
      version: TRACKING_PART_VERSION,
      save: (tenant) => this.saveTracking(tenant),
      restore: (tenant, chunk) => {
        if (!(chunk instanceof Uint8Array) || chunk.length === 0) throw new Error('tracking snapshot chunks are binary');
        const body = Buffer.from(chunk.buffer, chunk.byteOffset + 1, chunk.length - 1);
        if (chunk[0] === HISTORY_CHUNK) this.history.restore(body);
        else if (chunk[0] === KEYS_CHUNK) this.recentKeys.restore(tenant, body);
        else if (chunk[0] === ANONYMOUS_CHUNK) this.profiles.restoreAnonymous(body);
        else if (chunk[0] === POSITIONS_CHUNK) {
          this.positions?.restore(body);
          this.positionsRestored = true;
        }
        else throw new Error(`an unknown tracking snapshot chunk (${chunk[0]})`);
      },
      clear: (tenant) => {
        this.history.clear();
        this.recentKeys.clear(tenant);
        this.positions?.clear();
        this.profiles.clearAnonymous();
      },
    };
  }

  private *saveTracking(tenant: string): Iterable<Buffer> {
    for (const history of this.history.save()) yield Buffer.concat([Buffer.of(HISTORY_CHUNK), history]);
    for (const keys of this.recentKeys.save(tenant)) yield Buffer.concat([Buffer.of(KEYS_CHUNK), keys]);
    for (const rows of this.profiles.saveAnonymous()) yield Buffer.concat([Buffer.of(ANONYMOUS_CHUNK), rows]);
    // Always at least one chunk, so that a restore can tell an empty index from a snapshot without one;
    // none for an index that is missing what came before an older snapshot, so the next start distrusts it too.
    if (this.positions?.trusted !== true) return;
    yield Buffer.of(POSITIONS_CHUNK);
    for (const positions of this.positions.save()) yield Buffer.concat([Buffer.of(POSITIONS_CHUNK), positions]);
  }

  /** Deletes closed segments whose newest record is older than `cutoff`; the aggregates forget them at the next start. */
  async dropSegmentsBefore(cutoff: number): Promise<string[]> {
    const dropped = await this.log.dropBefore(cutoff);
    this.positions?.dropped(dropped);
    return dropped;
  }

  private aggregates: readonly ActivityAggregate[] = [];
  private logger: Logger | undefined;
  private now: () => number = Date.now;

  /** Appends the collection APIs acknowledged before folding them (fold-queue.ts). */
  private readonly unfolded = new FoldQueue((batch) => this.foldBatch(batch));
  /** How far behind the head of a shared log this process's fold of other processes' records is (ms; 0 once it reached the head). */
  followLagMs = 0;

  /** Folds an acknowledged append after the answer (fold-queue.ts): in this turn's check phase, in log order. */
  foldLater(records: readonly LogRecord[], position: string | void, then?: () => void): void {
    this.unfolded.push({ records, position, then });
  }

  /** Acknowledged records not folded yet, and when the oldest of them arrived (undefined: none). */
  foldLag(): { records: number; oldestReceivedAt: number | undefined } {
    return this.unfolded.lag();
  }

  /** Folds every acknowledged append now: anything else that folds calls this first, so the order stays the log's. */
  settle(): void {
    this.unfolded.settle();
  }

  private foldBatch(batch: UnfoldedBatch): void {
    try {
      for (const record of batch.records) this.fold(record, batch.position);
      this.appended(batch.records);
      batch.then?.();
    } catch (error) {
      // Logged and acknowledged: a restart's replay folds it again. The batches after it still fold.
      this.logger?.error({ err: error, tenant: this.tenant }, 'folding acknowledged activities failed');
    }
  }

  /**
   * Updates the profile history and every registered aggregate with one durable record. Callers fold
   * in the same turn of the event loop as the append resolves: snapshots rely on it (snapshot-keeper.ts).
   * `position` is where the log put it (the append's or the replay's), for the index of positions.
   */
  fold(record: LogRecord, position?: string | void): void {
    if (record.receivedAt < this.oldestFolded) this.oldestFolded = record.receivedAt;
    // Recommendation ids must be found at once (a click may follow within a second). Folding one twice
    // (held in a snapshot and replayed after its cursor) only adds a block already known.
    // Another process erased a person: what this one keeps of them goes too (forgetting twice is harmless).
    if (record.kind === 'erasure') {
      this.whenLive(() => this.forgetErased(record));
      return;
    }
    if (record.kind === 'recommendation') {
      for (const aggregate of this.aggregates) aggregate.fold(this.tenant, record, undefined);
      return;
    }
    this.snapshots?.folded(1);
    // An experiment's exposure belongs to no profile history: only the aggregates see it.
    if (record.kind === 'exposure') this.whenLive(() => this.aggregates.forEach((aggregate) => aggregate.fold(this.tenant, record, undefined)));
    else this.whenLive(() => this.foldActivity(record, position));
  }

  private keysOnly = false;
  private foldActivity(record: LoggedActivity, position: string | void): void {
    // Ingest-only: the idempotency memory, and the aggregates it was given (its metrics), no profile's state.
    if (this.keysOnly) {
      this.recentKeys.remember(record);
      for (const aggregate of this.aggregates) aggregate.fold(this.tenant, record, undefined);
      return;
    }
    if (typeof position === 'string' && record.profileId !== UNATTRIBUTED) this.positions?.note(record.profileId, position);
    // The same object is kept by the history and the idempotency memory (no text per activity: see profile-history.ts).
    this.recentKeys.remember(record);
    const attributed = record.profileId !== UNATTRIBUTED;
    if (attributed) this.profiles.shareStrings(record);
    const profileId = attributed ? this.profiles.canonicalId(record.profileId) : undefined;
    if (profileId !== undefined) this.history.add(profileId, record);
    for (const aggregate of this.aggregates) aggregate.fold(this.tenant, record, profileId);
  }

  /** A logged activity of an anonymous session, whose profile only the log (and snapshots) hold (profiles.ts): taken back as it was when nothing here knows it. */
  private adopt(record: LogRecord, checked: Set<string> | undefined): void {
    if (record.kind !== 'activity' || record.sessionId === undefined || record.profileId === UNATTRIBUTED) return;
    if (checked !== undefined) {
      if (checked.has(record.profileId)) return;
      checked.add(record.profileId);
    }
    this.profiles.adoptSession(record.profileId, record.sessionId, record.timestamp);
  }

  /** Records another process appended to the shared log: folded and announced like a local append. */
  private foldOthers(values: readonly unknown[], caughtUp: boolean): void {
    this.settle();
    const records = values.filter(isLogRecord);
    // Behind only while pages are still waiting: at the head, an old record means a quiet shop, not a lag.
    const newest = records.at(-1)?.receivedAt;
    this.followLagMs = caughtUp || newest === undefined ? 0 : Math.max(0, this.now() - newest);
    for (const record of records) {
      this.adopt(record, undefined);
      this.fold(record);
    }
    if (records.length > 0) this.appended(records);
  }

  /** Tells the aggregates that one live append was folded. */
  appended(records: readonly LogRecord[]): void {
    this.whenLive(() => {
      for (const aggregate of this.aggregates) aggregate.appended?.(this.tenant, records);
    });
  }

  private onErasedElsewhere: ((state: TenantActivities, notice: LoggedErasure) => void) | undefined;

  private forgetErased(notice: LoggedErasure): void {
    this.profiles.forgetErased(notice.profileIds);
    this.forgetMemory(notice.profileIds);
    this.onErasedElsewhere?.(this, notice);
  }

  /** Erasure: drops what memory keeps under these profile ids, here and in every aggregate. */
  forgetProfiles(profileIds: readonly string[]): void {
    this.settle();
    this.forgetMemory(profileIds);
  }

  private forgetMemory(profileIds: readonly string[]): void {
    for (const id of profileIds) this.history.forget(id);
    this.positions?.forget(profileIds);
    this.recentKeys.forgetProfiles(new Set(profileIds));
    this.pages.forget(new Set(profileIds));
    for (const aggregate of this.aggregates) aggregate.forgetProfiles?.(this.tenant, profileIds);
  }

  /** Moves what was kept under merged anonymous profiles to the profile they joined. */
  followMerges(into: string, merged: readonly string[]): void {
    this.settle();
    this.whenLive(() => {
      for (const from of merged) this.history.merge(from, into);
      for (const aggregate of this.aggregates) aggregate.mergeProfiles?.(this.tenant, merged, into);
    });
  }
}
