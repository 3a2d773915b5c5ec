/**
 * The event-log port: an append-only log of JSON records per stream (a tenant's activities), which the
 * domains read back at start to rebuild what they keep in memory. The embedded adapter is a directory
 * of JSON-lines segments (file-event-logs.ts); a database adapter can be a table with a sequence
 * column, one row per record, without touching the domains. docs/storage.md lists what every adapter
 * must guarantee, and test/contracts/event-log-contract.ts checks it.
 *
 * Contract:
 * - `EventLogs.open(stream)` returns the same log for the same stream until that log is closed.
 * - `append(records)` resolves only once every record of the call is durable, and never makes part
 *   of a call durable without the rest. An adapter whose records sit in places that can be read alone
 *   (the file adapter's segments) resolves with the position every record of the call went to, the
 *   name `replay` gives it; others (PostgreSQL) resolve with nothing. Concurrent appends are grouped into as few durable writes as
 *   the engine allows (group commit); each call keeps its records together and in order, and calls
 *   reach the log in the order they were made.
 * - `replay(visit)` hands every stored record to `visit` in append order, each with its position (the
 *   unit retention drops, such as a file segment); a record the engine cannot read back (torn by a
 *   crash) is skipped and counted, never fatal. It resolves with a `cursor`: an opaque string naming
 *   the place just after the last record handed over (the `after` given, or the log's start, when none
 *   was). `replay(visit, { after })` hands over exactly the records appended after that place, in
 *   order, whatever segments or appends came since, also after a reopen. A cursor the log can no
 *   longer honour exactly (the records around it were compacted by `remove` or dropped by retention,
 *   it names another place than any this log gave, it is malformed) rejects with `StaleCursorError`
 *   before anything is handed over: the caller replays from the start instead. Never a silent skip.
 * - `cursor()` names the place just after the last durable append (every append whose promise has
 *   resolved), so that state folded from those appends can be saved with it (a snapshot).
 * - `scan(query, visit)` hands over, in append order, exactly the records whose top-level `query.field`
 *   is a string equal to one of `query.values` (a profile's history past what memory keeps). With
 *   `query.positions`, an adapter with positions may read only those (the caller knows the records are
 *   there: tracking's index of each profile's segments); one that finds records by value through an
 *   index of its own (PostgreSQL's on `profileId`) ignores them. Positions no longer in the log are skipped.
 * - `remove(query)` erases, durably, exactly the records `scan(query)` would hand over (a person's
 *   records, for a data-subject request) and resolves with how many there were; the others keep their
 *   order, and appends made meanwhile are neither lost nor delayed for long. After a crash part-way,
 *   each record is either still there or gone, never torn; running it again finishes the job.
 * - `dropBefore(cutoff)` forgets records whose time (the number in the field named `timeField` when
 *   the log was opened) is older than `cutoff`. It may keep older records that share a position with
 *   newer ones, and never drops the position being written; it returns the positions it dropped.
 * - `close()` waits for every append already made, then refuses new ones.
 */

export interface EventLogOptions {
  /** The top-level field holding a record's time in milliseconds, which retention compares. */
  timeField: string;
}

export interface ReplayStats {
  records: number;
  /** Records that could not be read back (a line torn by a crash), skipped. */
  skipped: number;
}

/** Records whose top-level `field` equals one of `values`. */
export interface ScanQuery {
  field: string;
  values: readonly string[];
  /** Where the records are known to be (positions as `append` and `replay` name them); absent: everywhere. */
  positions?: readonly string[];
}

export interface ReplayOptions {
  /** A cursor from `replay` or `cursor()`: only the records appended after it are handed over. */
  after?: string;
}

/** A cursor this log cannot resume from exactly: replay from the start instead. */
export class StaleCursorError extends Error {
  readonly cursor: string;

  constructor(cursor: string, reason: string) {
    super(`The event-log cursor "${cursor.slice(0, 80)}" cannot be resumed from: ${reason}`);
    this.name = 'StaleCursorError';
    this.cursor = cursor;
  }
}

export interface EventLog {
  /** True when `scan` honours `query.positions` (the file adapter); an index of positions is then worth keeping. */
  readonly scansByPosition?: boolean;
  /** Resolves with the records' position when the adapter can scan by position (see the contract), else with nothing. */
  append(records: readonly unknown[]): Promise<string | void>;
  replay(visit: (record: unknown, position: string) => void, options?: ReplayOptions): Promise<ReplayStats & { cursor: string }>;
  /** The place after the last durable append. */
  cursor(): string;
  scan(query: ScanQuery, visit: (record: unknown) => void): Promise<void>;
  remove(query: ScanQuery): Promise<number>;
  dropBefore(cutoff: number): Promise<string[]>;
  /**
   * Shared adapters only (several processes on one log, such as PostgreSQL): hands over, in append
   * order and in batches, the records that other processes append after `after` (a cursor `replay`
   * resolved with), soon after each commits; never this log's own appends; `caughtUp` when a batch reached the newest committed record. Returns the way to stop.
   */
  follow?(after: string, visit: (records: unknown[], read: { caughtUp: boolean }) => void): () => void;
  close(): Promise<void>;
}

export interface EventLogs {
  /** Stream names are one segment of letters, digits, `.`, `_` and `-`, starting with a letter or digit (tenant ids). */
  open(stream: string, options: EventLogOptions): Promise<EventLog>;
  /** Closes every log still open. */
  close(): Promise<void>;
}

const STREAM = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function assertStreamName(stream: string): void {
  if (!STREAM.test(stream)) throw new Error(`Invalid event-log stream name "${stream}"`);
}
