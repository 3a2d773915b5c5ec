/**
 * The EventLogs port on PostgreSQL: one `events` table for every stream, a row per record with a
 * `bigserial` sequence. Appends queued while a commit is under way go together in the next
 * transaction (group commit, one statement: migrations.ts's `append_events`), resolved after it
 * commits. Appends to one stream take a transaction advisory lock, so sequence order is commit order:
 * a process reading "after seq N" never misses a record that committed late under a smaller number.
 * Cursors are sequence numbers, which never go stale.
 */
import { assertStreamName, StaleCursorError, type EventLog, type EventLogOptions, type EventLogs, type ReplayOptions, type ReplayStats, type ScanQuery } from '../event-log/event-log.js';
import { randomBytes } from 'node:crypto';
import type { PostgresEngine } from './postgres-engine.js';

const PAGE = 2000;
/**
 * The shortest time between two reads of a follower (ms): the first read after a quiet spell goes at
 * once, so the lag from another process's commit stays a round trip or two, and under load it grows by
 * at most this much.
 */
const FOLLOW_SPACING_MS = 20;
const CURSOR = /^seq:(\d{1,19})$/;
/** A field name put in the SQL text itself, so that the expression index on profileId can serve it. */
const PLAIN_FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A `follow` in progress: where it has read to, and whether a read is running or asked for again. */
interface Follower {
  after: bigint;
  visit: (records: unknown[], read: { caughtUp: boolean }) => void;
  busy: boolean;
  again: boolean;
  /** performance.now() when the latest read started. */
  lastReadAt: number;
}

interface PendingAppend {
  rows: string[];
  times: Array<number | null>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface PostgresEventLogsOptions {
  engine: PostgresEngine;
  /**
   * Sequence numbers per retention unit (a "position"): `dropBefore` reports the units it emptied.
   * Default 10,000; the contract suite uses a few.
   */
  positionSpan?: number;
}

export class PostgresEventLog implements EventLog {
  readonly stream: string;
  private readonly engine: PostgresEngine;
  private readonly timeField: string;
  private readonly span: number;
  private readonly onClose: () => void;
  private queue: PendingAppend[] = [];
  private writing: Promise<void> | undefined;
  /** The group commit under way, if any: the follower waits for it to learn which rows are this log's own. */
  private committing: Promise<void> | undefined;
  private closed = false;
  /** The highest sequence number this process appended or read. */
  private last = 0n;
  /** Commits made, each holding whatever queued during the previous one (for the tests of group commit). */
  durableWrites = 0;
  private follower: Follower | undefined;
  /** Sequence numbers this log appended that the follower has not passed yet: it skips them. */
  private readonly own = new Set<string>();
  /** Written with each row this log appends, so that its follower reads them back without their text. */
  private readonly origin = randomBytes(9).toString('base64url');

  constructor(options: { engine: PostgresEngine; stream: string; timeField: string; span: number; onClose: () => void }) {
    this.engine = options.engine;
    this.stream = options.stream;
    this.timeField = options.timeField;
    this.span = options.span;
    this.onClose = options.onClose;
  }

  append(records: readonly unknown[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The event log is closed.'));
    if (records.length === 0) return Promise.resolve();
    let rows: string[];
    try {
      rows = records.map((record) => JSON.stringify(record));
    } catch (error) {
      return Promise.reject(error);
    }
    const times = records.map((record) => {
      const time = (record as Record<string, unknown> | null)?.[this.timeField];
      return typeof time === 'number' && Number.isFinite(time) ? time : null;
    });
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rows, times, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const commit = this.commit(batch);
      this.committing = commit;
      await commit;
      this.committing = undefined;
    }
    this.writing = undefined;
  }

  /**
   * One group commit: a single statement (migration 2's `append_events`) that takes the stream's lock,
   * inserts, notifies and commits as its own transaction. Its sequence numbers become known only once it
   * has committed, so the follower waits for a commit in flight before it hands over what it read.
   */
  private async commit(batch: PendingAppend[]): Promise<void> {
    try {
      const { rows } = await this.engine.query<{ seq: string }>('SELECT append_events($1, $2::float8[], $3::json, $4, $5, $6) AS seq', [
        this.stream,
        batch.flatMap((entry) => entry.times),
        `[${batch.map((entry) => entry.rows.join(',')).join(',')}]`,
        `discovery-kit events ${this.engine.schema} ${this.stream}`,
        this.engine.channel,
        this.origin,
      ]);
      let highest = 0n;
      for (const row of rows) {
        if (this.follower !== undefined) this.own.add(row.seq);
        const seq = BigInt(row.seq);
        if (seq > highest) highest = seq;
      }
      this.durableWrites++;
      if (highest > this.last) this.last = highest;
      for (const entry of batch) entry.resolve();
    } catch (error) {
      // Rejected: if it committed all the same (the answer lost with the connection), the follower hands
      // the records over like another process's, which is right, since the caller was told they failed.
      for (const entry of batch) entry.reject(error);
    }
  }

  follow(after: string, visit: (records: unknown[], read: { caughtUp: boolean }) => void): () => void {
    const follower: Follower = { after: this.parseCursor(after), visit, busy: false, again: false, lastReadAt: -Infinity };
    this.follower = follower;
    const poke = () => this.catchUp(follower);
    const stops = [
      this.engine.onNotice((notice) => {
        if (notice.topic === 'events' && notice.stream === this.stream) poke();
      }),
      this.engine.onReconnect(poke),
    ];
    // Notices are the fast path; the poll covers one lost while the listening connection was down.
    const timer = setInterval(poke, 1000);
    timer.unref();
    poke();
    return () => {
      clearInterval(timer);
      for (const stop of stops) stop();
      if (this.follower === follower) {
        this.follower = undefined;
        this.own.clear();
      }
    };
  }

  /** Reads what was committed past the follower's place, one read at a time (a poke meanwhile asks for another). */
  private catchUp(follower: Follower): void {
    if (follower.busy) {
      follower.again = true;
      return;
    }
    follower.busy = true;
    void (async () => {
      try {
        do {
          follower.again = false;
          // Under a steady stream of commits, reads come at most every FOLLOW_SPACING_MS: each then brings
          // many commits' rows, where one read per commit spent more on the query than on the rows.
          const wait = follower.lastReadAt + FOLLOW_SPACING_MS - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          if (this.follower !== follower) break;
          follower.lastReadAt = performance.now();
          await this.readFollowed(follower);
        } while (follower.again && this.follower === follower);
      } catch {
        // Out of reach: the next notice or poll tries again from the same place.
      } finally {
        follower.busy = false;
      }
    })();
  }

  private async readFollowed(follower: Follower): Promise<void> {
    for (;;) {
      // This log's own rows come without their text (`record` null): they were folded when appended.
      let { rows } = await this.engine.query<{ seq: string; record: string | null }>(
        'SELECT seq, CASE WHEN origin = $4 THEN NULL ELSE record::text END AS record FROM events WHERE stream = $1 AND seq > $2 ORDER BY seq LIMIT $3',
        [this.stream, follower.after.toString(), PAGE, this.origin],
      );
      // A commit of this log's under way may be among the rows: its sequence numbers are known once it answers.
      if (this.committing !== undefined) await this.committing;
      if (this.follower !== follower) return;
      // An own row this log does not know as its own: its append committed but the answer was lost, and the
      // caller was told it failed, so it is folded here like another process's. Rare: the page is read again whole.
      if (rows.some((row) => row.record === null && !this.own.has(row.seq))) {
        rows = await this.page(follower.after);
        if (this.follower !== follower) return;
      }
      const records: unknown[] = [];
      for (const row of rows) {
        if (this.own.delete(row.seq) || row.record === null) continue;
        try {
          records.push(JSON.parse(row.record));
        } catch {
          // Unreadable: skipped, as replay does.
        }
      }
      if (rows.length > 0) follower.after = BigInt(rows.at(-1)!.seq);
      if (follower.after > this.last) this.last = follower.after;
      // A page shorter than PAGE reached the newest committed row: what it holds is the head of the log.
      if (records.length > 0) follower.visit(records, { caughtUp: rows.length < PAGE });
      if (rows.length < PAGE) return;
    }
  }

  /** The stream's next PAGE rows after `after`, whole. */
  private async page(after: bigint): Promise<Array<{ seq: string; record: string }>> {
    const { rows } = await this.engine.query<{ seq: string; record: string }>('SELECT seq, record::text AS record FROM events WHERE stream = $1 AND seq > $2 ORDER BY seq LIMIT $3', [
      this.stream,
      after.toString(),
      PAGE,
    ]);
    return rows;
  }

  cursor(): string {
    return `seq:${this.last}`;
  }

  private parseCursor(cursor: string | undefined): bigint {
    if (cursor === undefined) return 0n;
    const match = CURSOR.exec(cursor);
    if (match === null) throw new StaleCursorError(cursor, 'it is not a cursor of a PostgreSQL event log');
    return BigInt(match[1]!);
  }

  async replay(visit: (record: unknown, position: string) => void, options: ReplayOptions = {}): Promise<ReplayStats & { cursor: string }> {
    let after = this.parseCursor(options.after);
    let records = 0;
    let skipped = 0;
    for (;;) {
      const rows = await this.page(after);
      for (const row of rows) {
        const seq = BigInt(row.seq);
        after = seq;
        let value: unknown;
        try {
          value = JSON.parse(row.record);
        } catch {
          skipped++;
          continue;
        }
        records++;
        visit(value, this.positionOf(seq));
      }
      if (rows.length < PAGE) break;
    }
    if (after > this.last) this.last = after;
    return { records, skipped, cursor: `seq:${after}` };
  }

  private positionOf(seq: bigint): string {
    return `block-${seq / BigInt(this.span)}`;
  }

  /** The WHERE clause and its values for the records whose top-level `field` is a string among `values`. */
  private matching(query: ScanQuery): { where: string; values: unknown[] } {
    if (PLAIN_FIELD.test(query.field)) {
      return { where: `stream = $1 AND json_typeof(record->'${query.field}') = 'string' AND record->>'${query.field}' = ANY($2)`, values: [this.stream, query.values] };
    }
    return { where: `stream = $1 AND json_typeof(record->$3) = 'string' AND record->>$3 = ANY($2)`, values: [this.stream, query.values, query.field] };
  }

  async scan(query: ScanQuery, visit: (record: unknown) => void): Promise<void> {
    if (query.values.length === 0) return;
    const { where, values } = this.matching(query);
    let after = 0n;
    for (;;) {
      const { rows } = await this.engine.query<{ seq: string; record: string }>(
        `SELECT seq, record::text AS record FROM events WHERE ${where} AND seq > $${values.length + 1} ORDER BY seq LIMIT ${PAGE}`,
        [...values, after.toString()],
      );
      for (const row of rows) {
        after = BigInt(row.seq);
        try {
          visit(JSON.parse(row.record));
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
        }
      }
      if (rows.length < PAGE) return;
    }
  }

  async remove(query: ScanQuery): Promise<number> {
    if (query.values.length === 0) return 0;
    const { where, values } = this.matching(query);
    const { rowCount } = await this.engine.query(`DELETE FROM events WHERE ${where}`, values);
    return rowCount ?? 0;
  }

  async dropBefore(cutoff: number): Promise<string[]> {
    const span = BigInt(this.span);
    return this.engine.transaction(async (client) => {
      // The unit holding the stream's newest record is being written: it stays whole.
      const newest = await client.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM events WHERE stream = $1', [this.stream]);
      if (newest.rows[0]?.seq == null) return [];
      const firstKept = (BigInt(newest.rows[0].seq) / span) * span;
      const deleted = await client.query<{ seq: string }>('DELETE FROM events WHERE stream = $1 AND at < $2 AND seq < $3 RETURNING seq', [
        this.stream,
        cutoff,
        firstKept.toString(),
      ]);
      const touched = [...new Set(deleted.rows.map((row) => BigInt(row.seq) / span))];
      if (touched.length === 0) return [];
      const left = await client.query<{ block: string }>('SELECT DISTINCT seq / $2 AS block FROM events WHERE stream = $1 AND seq / $2 = ANY($3::bigint[])', [
        this.stream,
        span.toString(),
        touched.map(String),
      ]);
      const survivors = new Set(left.rows.map((row) => BigInt(row.block)));
      return touched
        .filter((block) => !survivors.has(block))
        .sort((a, b) => (a < b ? -1 : 1))
        .map((block) => `block-${block}`);
    });
  }

  async close(): Promise<void> {
    if (!this.closed) this.onClose();
    this.closed = true;
    this.follower = undefined;
    while (this.writing !== undefined) await this.writing;
  }
}

export class PostgresEventLogs implements EventLogs {
  private readonly engine: PostgresEngine;
  private readonly span: number;
  private readonly logs = new Map<string, PostgresEventLog>();
  private readonly release: () => Promise<void>;
  private closed = false;

  constructor(options: PostgresEventLogsOptions) {
    this.engine = options.engine;
    this.span = options.positionSpan ?? 10_000;
    this.release = this.engine.retain();
  }

  async open(stream: string, options: EventLogOptions): Promise<EventLog> {
    if (this.closed) throw new Error('The event logs are closed.');
    assertStreamName(stream);
    let log = this.logs.get(stream);
    if (log === undefined) {
      const opened: PostgresEventLog = new PostgresEventLog({
        engine: this.engine,
        stream,
        timeField: options.timeField,
        span: this.span,
        onClose: () => {
          if (this.logs.get(stream) === opened) this.logs.delete(stream);
        },
      });
      log = opened;
      this.logs.set(stream, log);
    }
    return log;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const logs = [...this.logs.values()];
    this.logs.clear();
    for (const log of logs) await log.close();
    await this.release();
  }
}
