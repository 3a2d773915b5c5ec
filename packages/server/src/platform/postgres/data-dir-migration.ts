/**
 * Moves an embedded data directory (lowdb documents, activity-log segments, model blobs) into
 * PostgreSQL, for a shop that outgrew one process (`npm run migrate`, docs/scale-out.md). It opens the
 * directory with its own adapters, so the directory's lock refuses a run while its server is up.
 * Running it again changes nothing: a document is written only when its data differs, a stream is
 * copied only into an empty stream (each in one transaction, all or nothing), a blob only when its bytes differ.
 */
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { LowdbStore } from '../store/lowdb-store.js';
import { FileEventLogs } from '../event-log/file-event-logs.js';
import { FileBlobStore } from '../blob-store/file-blob-store.js';
import type { PostgresEngine } from './postgres-engine.js';

export interface MigrationReport {
  documents: { copied: number; unchanged: number };
  streams: Array<{ stream: string; records: number; skipped: number; copied: boolean }>;
  blobs: { copied: number; unchanged: number };
}

const BATCH = 1000;

export async function migrateDataDirectory(options: { from: string; engine: PostgresEngine; segmentBytes?: number; onProgress?: (line: string) => void }): Promise<MigrationReport> {
  const { engine } = options;
  const report: MigrationReport = { documents: { copied: 0, unchanged: 0 }, streams: [], blobs: { copied: 0, unchanged: 0 } };
  const store = new LowdbStore({ directory: options.from });
  try {
    for (const name of await store.list('')) {
      const doc = await store.document<object>(name, () => ({}));
      // Written only when different, so a second run leaves every version as the first left it.
      const { rowCount } = await engine.query(
        `INSERT INTO documents (name, data, version) VALUES ($1, $2, 1)
         ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data, version = documents.version + 1
         WHERE documents.data::text IS DISTINCT FROM EXCLUDED.data::text`,
        [name, JSON.stringify(doc.data)],
      );
      if ((rowCount ?? 0) > 0) report.documents.copied++;
      else report.documents.unchanged++;
    }
    options.onProgress?.(`documents: ${report.documents.copied} copied, ${report.documents.unchanged} already there`);

    const logs = new FileEventLogs({ directory: join(options.from, 'activities'), segmentBytes: options.segmentBytes ?? 64 * 1024 * 1024 });
    try {
      for (const stream of await subdirectories(join(options.from, 'activities'))) {
        const log = await logs.open(stream, { timeField: 'receivedAt' });
        const rows: string[] = [];
        const times: Array<number | null> = [];
        const { skipped } = await log.replay((record) => {
          rows.push(JSON.stringify(record));
          const time = (record as { receivedAt?: unknown } | null)?.receivedAt;
          times.push(typeof time === 'number' && Number.isFinite(time) ? time : null);
        });
        const copied = await engine.transaction(async (client) => {
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`discovery-kit events ${engine.schema} ${stream}`]);
          const { rows: existing } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM events WHERE stream = $1) AS any', [stream]);
          if (existing[0]?.any === true) return false;
          for (let start = 0; start < rows.length; start += BATCH) {
            await client.query(
              'INSERT INTO events (stream, at, record) SELECT $1, t.at, t.record FROM unnest($2::float8[], $3::json[]) WITH ORDINALITY AS t(at, record, i) ORDER BY t.i',
              [stream, times.slice(start, start + BATCH), rows.slice(start, start + BATCH)],
            );
          }
          return true;
        });
        report.streams.push({ stream, records: rows.length, skipped, copied });
        options.onProgress?.(`activities of ${stream}: ${copied ? `${rows.length} records copied` : 'already there, not copied again'}${skipped > 0 ? ` (${skipped} unreadable lines skipped)` : ''}`);
      }
    } finally {
      await logs.close();
    }

    const blobs = new FileBlobStore({ directory: options.from });
    for (const name of await blobNames(join(options.from, 'models'), options.from)) {
      const bytes = await blobs.get(name);
      if (bytes === undefined) continue;
      const { rowCount } = await engine.query(
        `INSERT INTO blobs (name, data) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data, updated_at = now() WHERE blobs.data IS DISTINCT FROM EXCLUDED.data`,
        [name, bytes],
      );
      if ((rowCount ?? 0) > 0) report.blobs.copied++;
      else report.blobs.unchanged++;
    }
    options.onProgress?.(`models: ${report.blobs.copied} copied, ${report.blobs.unchanged} already there`);
    return report;
  } finally {
    await store.close();
  }
}

async function subdirectories(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

/** Blob names under `models/`, skipping the dot files a put in progress writes. */
async function blobNames(dir: string, root: string): Promise<string[]> {
  const names: string[] = [];
  const walk = async (at: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else names.push(relative(root, full).split(sep).join('/'));
    }
  };
  await walk(dir);
  return names.sort();
}
