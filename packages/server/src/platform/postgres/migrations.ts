/**
 * The PostgreSQL schema, as numbered migrations applied in order at start (postgres-engine.ts). A
 * migration is never edited once released: a change is a new entry at the end.
 *
 * Why `json` and not `jsonb`: documents and records are read back whole by the process that keeps them
 * in memory, never queried inside (except `profileId`, indexed below). `json` keeps the text as written
 * (object key order included, which lowdb keeps too and some documents iterate in), and costs a parse
 * check on write instead of a conversion.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'documents, events, blobs',
    sql: `
      CREATE TABLE documents (
        name text COLLATE "C" PRIMARY KEY,
        data json NOT NULL,
        -- Counts committed writes; a process compares it with the version it holds to know it is behind.
        version bigint NOT NULL
      );
      CREATE TABLE events (
        seq bigserial PRIMARY KEY,
        stream text NOT NULL,
        -- The record's time field (receivedAt), for retention.
        at double precision,
        record json NOT NULL
      );
      CREATE INDEX events_stream_seq ON events (stream, seq);
      CREATE INDEX events_stream_at ON events (stream, at);
      -- A profile's history past what memory keeps, and erasure: EventLog.scan and remove on profileId.
      CREATE INDEX events_stream_profile ON events (stream, (record->>'profileId'));
      CREATE TABLE blobs (
        name text COLLATE "C" PRIMARY KEY,
        data bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];
