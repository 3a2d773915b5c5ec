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
}

/** A fold-only aggregate from a function (analytics counters, metrics). */
export function foldOnly(fold: (tenantId: string, record: LogRecord) => void): ActivityAggregate {
  return { fold: (tenantId, record) => fold(tenantId, record) };
}
