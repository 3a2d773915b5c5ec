/**
 * When one tenant's activity snapshots are taken (activity-snapshots.ts holds the format): after every
 * `everyRecords` records folded, every `everyMinutes` minutes when something changed, and at a clean
 * shutdown; one at a time, in the background, and never during an erasure (`exclusive`), so that no
 * snapshot written after an erasure holds the person.
 */
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import type { Logger } from '../../platform/logger.js';
import type { SnapshotPart } from './activity-aggregate.js';
import { encodeSnapshot, snapshotBlobName, snapshotHeader, type SnapshotWriteStats } from './activity-snapshots.js';

export interface SnapshotPolicy {
  enabled: boolean;
  everyRecords: number;
  everyMinutes: number;
}

export interface SnapshotKeeperDeps {
  tenant: string;
  blobs: BlobStore;
  logger: Logger;
  now: () => number;
  policy: SnapshotPolicy;
  parts: readonly SnapshotPart[];
  /** The log's cursor: read at a turn of the event loop, every append that resolved has been folded. */
  cursor: () => string;
  /** The oldest record time the state counts. */
  oldest: () => number | undefined;
  /** Stops folding into the state (records wait) until the returned function is called and resolves. */
  hold: () => () => Promise<void>;
  /** Run after the state is encoded and before it is stored: what the snapshot's cursor stands for must be durable elsewhere too. */
  beforeSave?: () => Promise<void>;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class SnapshotKeeper {
  /** Snapshots and erasures, one at a time. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Records folded since the state the stored snapshot holds (or since start, when none matches). */
  private changed = 0;
  private scheduled = false;
  /** Set once the start's replay is done: a snapshot of a state half rebuilt would not match the log's end. */
  private live = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout | undefined;
  /** The last snapshot written (bench and operations read it). */
  lastWrite: SnapshotWriteStats | undefined;

  constructor(private readonly deps: SnapshotKeeperDeps) {
    if (!deps.policy.enabled) return;
    this.timer = setInterval(() => {
      if (this.live && this.changed > 0) void this.take('interval');
    }, deps.policy.everyMinutes * 60_000);
    this.timer.unref();
  }

  get enabled(): boolean {
    return this.deps.policy.enabled;
  }

  /** Counts records folded; past `everyRecords` since the last snapshot, one is taken soon. */
  folded(count: number): void {
    this.changed += count;
    if (!this.enabled || !this.live || this.closed || this.scheduled || this.changed < this.deps.policy.everyRecords) return;
    this.scheduled = true;
    void this.take('records').finally(() => (this.scheduled = false));
  }

  /** Writes a snapshot of the state as it is now; failures are logged, never thrown (the log still has everything). */
  take(reason: string): Promise<SnapshotWriteStats | undefined> {
    if (!this.enabled) return Promise.resolve(undefined);
    return this.serial(async () => {
      // At a turn of the event loop every append whose promise resolved has been folded: the cursor matches the state.
      await turn();
      const release = this.deps.hold();
      const changedBefore = this.changed;
      let encoded: Awaited<ReturnType<typeof encodeSnapshot>>;
      try {
        encoded = await encodeSnapshot(snapshotHeader(this.deps.tenant, this.deps.cursor(), this.deps.now(), this.deps.oldest(), this.deps.parts), this.deps.parts);
      } catch (error) {
        await release();
        this.deps.logger.error({ err: error, tenant: this.deps.tenant }, 'activity snapshot failed; the next start replays more of the log');
        return undefined;
      }
      // Records folded while holding count towards the next snapshot.
      await release();
      try {
        // After the state is read (awaiting sooner would let appends pass the cursor unfolded), before it is stored.
        await this.deps.beforeSave?.();
        await this.deps.blobs.put(snapshotBlobName(this.deps.tenant), encoded.data);
      } catch (error) {
        this.deps.logger.error({ err: error, tenant: this.deps.tenant }, 'activity snapshot could not be stored; the next start replays more of the log');
        return undefined;
      }
      this.changed -= changedBefore;
      this.lastWrite = encoded.stats;
      const { bytes, chunks, longestSliceMs, longestStep, ms } = encoded.stats;
      this.deps.logger.info(
        { tenant: this.deps.tenant, reason, bytes, chunks, ms: Math.round(ms), longestSliceMs: Math.round(longestSliceMs), longestStep: { part: longestStep.part, ms: Math.round(longestStep.ms) } },
        'activity snapshot written',
      );
      return encoded.stats;
    });
  }

  /** Runs `work` (an erasure) with no snapshot being taken, then drops the stored snapshot, which may hold what `work` erased. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.serial(async () => {
      const result = await work();
      await this.deps.blobs.remove(snapshotBlobName(this.deps.tenant));
      this.changed = Math.max(this.changed, 1);
      return result;
    });
  }

  /** Says how many records the restored state lacked (replayed after it) or holds without a snapshot (full replay). */
  started(changed: number): void {
    this.live = true;
    this.changed = changed;
    this.folded(0);
  }

  /** The shutdown snapshot (when the state moved since the stored one), then no more. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.enabled && !this.closed && this.changed > 0) await this.take('shutdown');
    this.closed = true;
    await this.tail;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
