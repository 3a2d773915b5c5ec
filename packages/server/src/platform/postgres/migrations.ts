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
  {
    version: 2,
    name: 'append_events: a group commit in one statement',
    // One round trip per group commit instead of five (BEGIN, the stream's lock, INSERT, NOTIFY, COMMIT):
    // called on its own, the statement is its transaction, so the advisory lock still holds until the
    // commit and sequence order stays commit order (postgres-event-log.ts). The records come as one JSON
    // array (each element's text kept as written): a json[] parameter had the client escape every quote
    // of every record, a sizeable share of the append's CPU in a profile.
    sql: `
      -- The log that appended the row (a random id per process and stream): a follower reads its own rows without their text.
      ALTER TABLE events ADD COLUMN origin text;
      CREATE FUNCTION append_events(p_stream text, p_times float8[], p_records json, p_lock text, p_channel text, p_origin text)
      RETURNS SETOF bigint LANGUAGE plpgsql AS $fn$
      DECLARE
        added_seqs bigint[];
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext(p_lock));
        WITH added AS (
          INSERT INTO events (stream, at, record, origin)
          SELECT p_stream, p_times[r.i::int], r.record, p_origin FROM json_array_elements(p_records) WITH ORDINALITY AS r(record, i) ORDER BY r.i
          RETURNING events.seq
        )
        SELECT array_agg(added.seq ORDER BY added.seq) INTO added_seqs FROM added;
        PERFORM pg_notify(p_channel, json_build_object('topic', 'events', 'stream', p_stream, 'seq', added_seqs[array_upper(added_seqs, 1)]::text)::text);
        RETURN QUERY SELECT unnest(added_seqs);
      END
      $fn$;
    `,
  },
];
