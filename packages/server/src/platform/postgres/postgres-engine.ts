/**
 * One connection to a PostgreSQL database shared by the three PostgreSQL adapters of a process: a pool
 * for queries and transactions, one listening connection for change notices (LISTEN/NOTIFY, so every
 * process hears of a commit as it happens), the schema migrations, and the mapping of a lost
 * connection to the `unavailable` refusal (503 with Retry-After) instead of a 500.
 */
import pg from 'pg';
import { DomainError } from '../domain-error.js';
import type { Logger } from '../logger.js';
import { MIGRATIONS } from './migrations.js';

export interface PostgresEngineOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** A schema of its own (created if missing): tests give each place one; default `public`. */
  schema?: string;
  logger?: Logger;
  /** Connections in the pool (default 10). */
  poolSize?: number;
}

/** A change notice: `topic` says what changed (a document, a stream), the rest is the topic's own. */
export interface ChangeNotice {
  topic: string;
  [key: string]: unknown;
}

/** PostgreSQL could not be reached at start: the message names where, never the password. */
export class PostgresUnreachableError extends Error {
  constructor(where: string, reason: string) {
    super(`PostgreSQL is unreachable at ${where}: ${reason}`);
    this.name = 'PostgresUnreachableError';
  }
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,40}$/;
const RETRY_AFTER_SECONDS = 2;
/** SQLSTATE classes and codes meaning "the server is gone or not taking work", not "the query is wrong". */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** True for an error that says the database is out of reach (as opposed to a bug or bad data). */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNO.has(code))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end/i.test(error.message);
}

/** Host, port and database of a URL, for messages: the user and password are left out. */
export function describeLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return '(an unreadable postgres:// URL)';
  }
}

export class PostgresEngine {
  readonly pool: pg.Pool;
  readonly schema: string;
  /** The NOTIFY channel of this schema, so that two schemas on one database do not hear each other. */
  readonly channel: string;
  readonly location: string;
  private readonly options: PostgresEngineOptions;
  private readonly logger: Logger | undefined;
  private readonly listeners = new Set<(notice: ChangeNotice) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private holders = 0;
  private closed = false;

  private constructor(options: PostgresEngineOptions) {
    this.options = options;
    this.schema = options.schema ?? 'public';
    if (!SCHEMA.test(this.schema)) throw new Error(`Invalid PostgreSQL schema name "${this.schema}"`);
    this.channel = `discovery_changes_${this.schema}`;
    this.location = describeLocation(options.url);
    this.logger = options.logger;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      options: `-c search_path=${this.schema}`,
      application_name: 'discovery-kit',
    });
    // An idle connection dropped by the server must not take the process down; the next query reconnects.
    this.pool.on('error', (error) => this.logger?.warn({ err: error }, 'a PostgreSQL connection was lost'));
  }

  /** Connects, applies the migrations, starts listening; fails with PostgresUnreachableError when it cannot reach the server. */
  static async connect(options: PostgresEngineOptions): Promise<PostgresEngine> {
    const engine = new PostgresEngine(options);
    try {
      await engine.migrate();
    } catch (error) {
      await engine.pool.end().catch(() => undefined);
      if (isConnectionError(error) || (error as { code?: string }).code === '28P01' || (error as { code?: string }).code === '3D000') {
        throw new PostgresUnreachableError(engine.location, (error as Error).message || String((error as { code?: string }).code));
      }
      throw error;
    }
    await engine.startListening();
    return engine;
  }

  /**
   * Applies the migrations not yet applied, in one transaction under an advisory lock, so that two
   * processes starting together apply each once; a second run finds nothing to do.
   */
  async migrate(): Promise<number[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`discovery-kit migrations ${this.schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const done = new Set(rows.map((row) => row.version));
      const applied: number[] = [];
      for (const migration of MIGRATIONS) {
        if (done.has(migration.version)) continue;
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        applied.push(migration.version);
      }
      await client.query('COMMIT');
      if (applied.length > 0) this.logger?.info({ applied, schema: this.schema }, 'PostgreSQL migrations applied');
      return applied;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** A query on any pooled connection; a lost connection becomes the `unavailable` refusal. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, values);
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Runs `work` in a transaction on one connection: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.translate(error);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isConnectionError(error);
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw this.translate(error);
    } finally {
      // A connection that failed mid-transaction is thrown away rather than handed to the next caller.
      client.release(broken ? true : undefined);
    }
  }

  /** Sends a notice to every process (this one included) when the surrounding transaction commits. */
  async notify(client: pg.ClientBase, notice: ChangeNotice): Promise<void> {
    await client.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(notice)]);
  }

  /** Hears every notice; returns the way to stop. */
  onNotice(listener: (notice: ChangeNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after the listening connection came back: notices sent meanwhile were missed, so catch up. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  private translate(error: unknown): unknown {
    if (!isConnectionError(error)) return error;
    return new DomainError('unavailable', 'The store is out of reach; nothing was stored. Try again shortly.', {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      detail: `PostgreSQL at ${this.location}: ${(error as Error).message}`,
    });
  }

  private async startListening(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url, application_name: 'discovery-kit listener' });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.logger?.warn({ err: error, at: this.location }, 'PostgreSQL change notices lost; reconnecting');
      this.scheduleReconnect(500);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel !== this.channel || message.payload === undefined) return;
      let notice: ChangeNotice;
      try {
        notice = JSON.parse(message.payload) as ChangeNotice;
      } catch {
        return;
      }
      for (const listener of this.listeners) listener(notice);
    });
    await client.connect();
    await client.query(`LISTEN ${this.channel}`);
    this.listener = client;
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.closed || this.reconnectTimer !== undefined) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.startListening().then(
        () => {
          this.logger?.info({ at: this.location }, 'PostgreSQL change notices back');
          for (const listener of this.reconnectListeners) listener();
        },
        () => this.scheduleReconnect(Math.min(delayMs * 2, 5000)),
      );
    }, delayMs);
    this.reconnectTimer.unref();
  }

  /** An adapter holds the engine while it is open; the last to let go closes it. */
  retain(): () => Promise<void> {
    this.holders++;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      if (--this.holders === 0) await this.close();
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}
