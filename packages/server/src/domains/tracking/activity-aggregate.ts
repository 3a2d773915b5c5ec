/**
 * What another domain folds from the activity log. Tracking owns the log and the profiles; search
 * (autocomplete's query statistics), recommendations (popularity, co-occurrence, interactions, the
 * recommendation-id ledger) and analytics each keep their own aggregates and hand them to tracking
 * when it opens, which replays the log through them and then feeds them every new durable record.
 */
import type { LogRecord } from './activity-record.js';

export interface ActivityAggregate {
  /**
   * One durable record, in log order: at start-up (replay) and after each append. `profileId` is the
   * profile the record counts for after merges, or undefined when it names no shopper (and for
   * recommendation-id records).
   */
  fold(tenantId: string, record: LogRecord, profileId: string | undefined): void;
  /** Anonymous profiles `from` joined profile `into` (identify): move what was kept under them. */
  mergeProfiles?(tenantId: string, from: readonly string[], into: string): void;
  /**
   * Erasure of a person (data-subject request): forget everything kept under these profile ids (the
   * canonical one and those merged into it). Counts that name nobody may stay; the log is compacted
   * without the person's records, so a rebuild no longer counts them either.
   */
  forgetProfiles?(tenantId: string, profileIds: readonly string[]): void;
  /** After the records of one live append were folded (not during replay): readers may cache until the next one. */
  appended?(tenantId: string, records: readonly LogRecord[]): void;
  /**
   * How what it keeps is saved in snapshots (activity-snapshots.ts), so that a start restores it and
   * replays only the log after the snapshot. While one aggregate lacks it, every start replays the whole log.
   */
  snapshot?: SnapshotPart;
}

/**
 * One aggregate's share of a snapshot: its state for a tenant as a sequence of JSON-able chunks, each
 * small (a few thousand entries), since the writer yields to the event loop between chunks. Nothing
 * folds into the aggregate while `save` runs (tracking holds new records until it is done).
 */
export interface SnapshotPart {
  /** Names the part in a snapshot; a snapshot without every registered part is not used. */
  name: string;
  /** The chunks' format: a snapshot written with another version is not used (full replay). */
  version: number;
  save(tenantId: string): Iterable<unknown>;
  /** One chunk `save` made, in order, into the tenant's state, which `clear` emptied first. */
  restore(tenantId: string, chunk: unknown): void;
  /** Forgets the tenant's state (before a restore, and when one failed part-way). */
  clear(tenantId: string): void;
}

/**
 * A fold-only aggregate from a function (metrics). `stateless` says it keeps nothing a restart needs
 * (it counts only records received since this process started), so it never stops snapshots.
 */
export function foldOnly(fold: (tenantId: string, record: LogRecord) => void, options: { stateless?: string } = {}): ActivityAggregate {
  const aggregate: ActivityAggregate = { fold: (tenantId, record) => fold(tenantId, record) };
  if (options.stateless !== undefined) aggregate.snapshot = statelessPart(options.stateless);
  return aggregate;
}

/** The snapshot part of an aggregate that keeps nothing folded from the log (it saves nothing and restores nothing). */
export function statelessPart(name: string): SnapshotPart {
  return { name, version: 1, save: () => [], restore: () => undefined, clear: () => undefined };
}
