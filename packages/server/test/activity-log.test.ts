/** The activity log on its own: group commit, rotation, torn lines after a crash, and retention at start. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ActivityLog, segmentName } from '../src/platform/event-log/activity-log.js';
import { makeDataDir } from './support/test-server.js';

async function readAll(log: ActivityLog): Promise<{ values: unknown[]; skipped: number }> {
  const values: unknown[] = [];
  const { skipped } = await log.replay((value) => values.push(value));
  return { values, skipped };
}

describe('ActivityLog', () => {
  it('resolves concurrent appends after they are written, in order, one JSON line each', async () => {
    const dir = await makeDataDir();
    const log = await ActivityLog.open({ directory: dir, segmentBytes: 1024 * 1024 });
    await Promise.all(Array.from({ length: 100 }, (_, i) => log.append([{ n: i }])));
    const text = await readFile(join(dir, segmentName(1)), 'utf8');
    assert.equal(text.split('\n').length, 101);
    assert.deepEqual((await readAll(log)).values, Array.from({ length: 100 }, (_, i) => ({ n: i })));
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('starts a new segment when the current one would pass segmentBytes', async () => {
    const dir = await makeDataDir();
    const log = await ActivityLog.open({ directory: dir, segmentBytes: 1024 });
    for (let i = 0; i < 40; i++) await log.append([{ n: i, pad: 'x'.repeat(80) }]);
    const segments = (await readdir(dir)).sort();
    assert.ok(segments.length >= 4, `expected several segments, got ${segments.join(', ')}`);
    assert.equal(segments[0], 'segment-000001.jsonl');
    assert.equal((await readAll(log)).values.length, 40);
    await log.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('cuts a line torn by a crash, so the next append starts clean', async () => {
    const dir = await makeDataDir();
    const first = await ActivityLog.open({ directory: dir, segmentBytes: 1024 * 1024 });
    await first.append([{ n: 1 }]);
    await first.close();
    await appendFile(join(dir, segmentName(1)), '{"n":2,"tor');
    const reopened = await ActivityLog.open({ directory: dir, segmentBytes: 1024 * 1024 });
    await reopened.append([{ n: 3 }]);
    assert.deepEqual(await readAll(reopened), { values: [{ n: 1 }, { n: 3 }], skipped: 0 });
    await reopened.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('skips an unreadable line on replay instead of failing', async () => {
    const dir = await makeDataDir();
    const log = await ActivityLog.open({ directory: dir, segmentBytes: 1024 * 1024 });
    await log.append([{ n: 1 }]);
    await appendFile(join(dir, segmentName(1)), 'not json\n');
    await log.close();
    const reopened = await ActivityLog.open({ directory: dir, segmentBytes: 1024 * 1024 });
    assert.deepEqual(await readAll(reopened), { values: [{ n: 1 }], skipped: 1 });
    await reopened.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses appends after close', async () => {
    const dir = await makeDataDir();
    const log = await ActivityLog.open({ directory: dir, segmentBytes: 1024 * 1024 });
    await log.close();
    await assert.rejects(log.append([{ n: 1 }]), /closed/);
    await rm(dir, { recursive: true, force: true });
  });
});
