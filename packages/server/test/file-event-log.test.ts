/**
 * The event log's file adapter: the EventLog contract over real files, then what is particular to JSON
 * lines in segments: one line per record, group commit, rotation, torn lines after a crash, the layout.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FileEventLog, segmentName } from '../src/platform/event-log/file-event-log.js';
import { FileEventLogs } from '../src/platform/event-log/file-event-logs.js';
import { StaleCursorError, type EventLog } from '../src/platform/event-log/event-log.js';
import { makeDataDir } from './support/test-server.js';
import { eventLogContract } from './contracts/event-log-contract.js';

eventLogContract('FileEventLogs', async () => {
  const dir = await makeDataDir();
  return { open: () => new FileEventLogs({ directory: dir, segmentBytes: 1024 }), dispose: () => rm(dir, { recursive: true, force: true }) };
});

async function readAll(log: EventLog): Promise<{ values: unknown[]; skipped: number }> {
  const values: unknown[] = [];
  const { skipped } = await log.replay((value) => values.push(value));
  return { values, skipped };
}

const openLog = (directory: string, segmentBytes = 1024 * 1024) => FileEventLog.open({ directory, segmentBytes, timeField: 'at' });

describe('FileEventLog', () => {
  it('resolves concurrent appends after they are written, in order, one JSON line each, in few fsynced writes', async () => {
    const dir = await makeDataDir();
    const log = await openLog(dir);
    await Promise.all(Array.from({ length: 100 }, (_, i) => log.append([{ n: i }])));
    const text = await readFile(join(dir, segmentName(1)), 'utf8');
    assert.equal(text.split('\n').length, 101);
    // Group commit: the first append is written alone, the 99 that queued meanwhile go in one batch.
    assert.equal(log.durableWrites, 2);
    assert.deepEqual((await readAll(log)).values, Array.from({ length: 100 }, (_, i) => ({ n: i })));
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('starts a new segment when the current one would pass segmentBytes', async () => {
    const dir = await makeDataDir();
    const log = await openLog(dir, 1024);
    for (let i = 0; i < 40; i++) await log.append([{ n: i, pad: 'x'.repeat(80) }]);
    const segments = (await readdir(dir)).sort();
    assert.ok(segments.length >= 4, `expected several segments, got ${segments.join(', ')}`);
    assert.equal(segments[0], 'segment-000001.jsonl');
    assert.equal((await readAll(log)).values.length, 40);
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('names the segment an append went to, and a scan by positions reads only those segments', async () => {
    const dir = await makeDataDir();
    const log = await openLog(dir, 1024);
    const where: string[] = [];
    for (let i = 0; i < 40; i++) where.push(await log.append([{ n: i, who: i % 2 === 0 ? 'even' : 'odd', pad: 'x'.repeat(80) }]));
    const replayed: string[] = [];
    await log.replay((_, position) => replayed.push(position));
    assert.deepEqual(where, replayed, 'the same names replay gives');
    const found = async (positions?: string[]) => {
      const out: number[] = [];
      await log.scan({ field: 'who', values: ['even'], ...(positions === undefined ? {} : { positions }) }, (record) => out.push((record as { n: number }).n));
      return out;
    };
    const evens = Array.from({ length: 20 }, (_, i) => 2 * i);
    assert.deepEqual(await found(), evens);
    const last = where.at(-1)!;
    assert.deepEqual(await found([last, 'segment-999999.jsonl']), evens.filter((n) => where[n] === last), 'only the named segment; a gone one is skipped');
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('cuts a line torn by a crash, so the next append starts clean', async () => {
    const dir = await makeDataDir();
    const first = await openLog(dir);
    await first.append([{ n: 1 }]);
    await first.close();
    await appendFile(join(dir, segmentName(1)), '{"n":2,"tor');
    const reopened = await openLog(dir);
    await reopened.append([{ n: 3 }]);
    assert.deepEqual(await readAll(reopened), { values: [{ n: 1 }, { n: 3 }], skipped: 0 });
    await reopened.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('skips an unreadable line on replay instead of failing', async () => {
    const dir = await makeDataDir();
    const log = await openLog(dir);
    await log.append([{ n: 1 }]);
    await appendFile(join(dir, segmentName(1)), 'not json\n');
    await log.close();
    const reopened = await openLog(dir);
    assert.deepEqual(await readAll(reopened), { values: [{ n: 1 }], skipped: 1 });
    await reopened.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses, as stale, cursors into compacted or dropped segments and cursors not at the end of a line', async () => {
    const dir = await makeDataDir();
    const log = await openLog(dir, 1024);
    const pad = 'x'.repeat(150);
    for (let n = 0; n < 6; n++) await log.append([{ n, at: n, profileId: n === 0 ? 'gone' : 'kept', pad }]);
    const beforeRemoval = log.cursor();
    const [compactions, segment, offset] = beforeRemoval.split(':').map(Number) as [number, number, number];
    const replayAfter = (after: string) => log.replay(() => undefined, { after });
    await assert.rejects(replayAfter(`${compactions}:${segment}:${offset - 1}`), StaleCursorError, 'mid-line');
    await assert.rejects(replayAfter(`${compactions}:${segment}:${offset + 100}`), StaleCursorError, 'past the end');
    await assert.rejects(replayAfter(`${compactions}:${segment + 5}:0`), StaleCursorError, 'a segment not written yet');
    assert.equal(await log.remove({ field: 'profileId', values: ['gone'] }), 1);
    await assert.rejects(replayAfter(beforeRemoval), /compacted since/);
    assert.equal(await readFile(join(dir, 'compactions'), 'utf8'), '1\n');
    // A removal that finds nothing rewrites nothing: cursors stay good.
    const afterRemoval = log.cursor();
    assert.equal(await log.remove({ field: 'profileId', values: ['nobody'] }), 0);
    assert.equal((await log.replay(() => undefined, { after: afterRemoval })).records, 0);
    const firstSegment = `${afterRemoval.split(':')[0]}:1:0`;
    for (let n = 6; n < 12; n++) await log.append([{ n, at: 10 ** 12, pad }]);
    assert.equal((await log.replay(() => undefined, { after: firstSegment })).records, 11);
    assert.ok((await log.dropBefore(100)).includes(segmentName(1)));
    await assert.rejects(replayAfter(firstSegment), /dropped by retention/);
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses appends after close', async () => {
    const dir = await makeDataDir();
    const log = await openLog(dir);
    await log.close();
    await assert.rejects(log.append([{ n: 1 }]), /closed/);
    await rm(dir, { recursive: true, force: true });
  });

  it('drops whole closed segments, never the one being written, even when it is old', async () => {
    const dir = await makeDataDir();
    const log = await openLog(dir, 1024);
    for (let i = 0; i < 10; i++) await log.append([{ n: i, at: 1000, pad: 'x'.repeat(200) }]);
    const segments = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
    assert.ok(segments.length > 2);
    const dropped = await log.dropBefore(2000);
    assert.deepEqual(dropped, segments.slice(0, -1));
    assert.deepEqual(await readdir(dir), [log.currentSegment]);
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('notes each closed segment\'s newest time beside it; a restarted log judges retention by the notes and drops them with their segments', async () => {
    const dir = await makeDataDir();
    const first = await openLog(dir, 1024);
    for (let i = 0; i < 10; i++) await first.append([{ n: i, at: i < 5 ? 1000 : 5000, pad: 'x'.repeat(200) }]);
    await first.close();
    const notes = (await readdir(dir)).filter((name) => name.endsWith('.newest')).sort();
    assert.ok(notes.length >= 2, `expected notes of the closed segments, got ${notes.join(', ')}`);
    assert.equal(await readFile(join(dir, notes[0]!), 'utf8'), '1000');
    // A snapshot-restored start replays no closed segment: its retention pass reads the notes.
    const second = await openLog(dir, 1024);
    const dropped = await second.dropBefore(2000);
    assert.ok(dropped.length >= 1 && dropped.every((name) => name.endsWith('.jsonl')));
    const left = await readdir(dir);
    for (const name of dropped) {
      assert.ok(!left.includes(name) && !left.includes(name.replace('.jsonl', '.newest')), `${name} and its note are gone`);
    }
    assert.deepEqual((await readAll(second)).values.map((v) => (v as { n: number }).n).slice(-5), [5, 6, 7, 8, 9]);
    await second.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps each stream in its own directory of segments: <directory>/<stream>/segment-000001.jsonl', async () => {
    const dir = await makeDataDir();
    const logs = new FileEventLogs({ directory: join(dir, 'activities'), segmentBytes: 1024 * 1024 });
    const log = await logs.open('demo', { timeField: 'at' });
    await log.append([{ n: 1 }]);
    await logs.close();
    assert.equal(await readFile(join(dir, 'activities', 'demo', 'segment-000001.jsonl'), 'utf8'), '{"n":1}\n');
    await assert.rejects(logs.open('demo', { timeField: 'at' }), /closed/);
    await rm(dir, { recursive: true, force: true });
  });
});
