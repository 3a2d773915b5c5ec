/**
 * What every event-log adapter must do (the promises in src/platform/event-log/event-log.ts), as a
 * suite an adapter's test file calls with a way to open its factory. Behaviour only, through the port;
 * torn lines and segment files are the file adapter's own tests (file-event-log.test.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StaleCursorError, type EventLog, type EventLogs } from '../../src/platform/event-log/event-log.js';

/** One empty place to log into (a directory, a database schema) for one test. */
export interface EventLogPlace {
  /**
   * Opens the factory on the place; an open after the previous one closed sees everything it stored.
   * Retention is tested with records of about 200 bytes: the adapter should drop units of a few of them
   * (the file adapter: segments of 1 KB), so that dropping old records leaves the new ones.
   */
  open(): EventLogs | Promise<EventLogs>;
  dispose(): Promise<void>;
}

const DAY = 24 * 60 * 60 * 1000;
const timed = { timeField: 'at' };

async function readAll(log: EventLog): Promise<{ values: unknown[]; positions: string[]; records: number; skipped: number }> {
  const values: unknown[] = [];
  const positions: string[] = [];
  const { records, skipped } = await log.replay((value, position) => {
    values.push(value);
    positions.push(position);
  });
  return { values, positions, records, skipped };
}

/** The `n` of each record replayed after `after`, and the cursor the replay ends at. */
async function numbersAfter(log: EventLog, after: string | undefined): Promise<{ numbers: number[]; cursor: string }> {
  const numbers: number[] = [];
  const { cursor } = await log.replay((value) => numbers.push((value as { n: number }).n), after === undefined ? {} : { after });
  return { numbers, cursor };
}

/** A replay after a cursor the log may refuse: StaleCursorError, or exactly `expected`. */
async function refusedOrExact(log: EventLog, after: string, expected: number[], why: string): Promise<void> {
  try {
    assert.deepEqual((await numbersAfter(log, after)).numbers, expected, why);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    assert.ok(error instanceof StaleCursorError, `${why}: a refusal is a StaleCursorError, got ${String(error)}`);
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

export function eventLogContract(adapter: string, makePlace: () => Promise<EventLogPlace>): void {
  const withPlace = async (test: (place: EventLogPlace) => Promise<void>) => {
    const place = await makePlace();
    try {
      await test(place);
    } finally {
      await place.dispose();
    }
  };

  describe(`EventLog contract: ${adapter}`, () => {
    it('gives back every appended record after a reopen, in append order', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        await log.append([{ n: 1, at: 1 }, { n: 2, at: 1 }]);
        await log.append([{ n: 3, at: 2, nested: { text: 'é ☃ "quoted"\n \\ 😀 \u0001' } }]);
        await logs.close();
        const reopened = await (await place.open()).open('shop', timed);
        const read = await readAll(reopened);
        assert.deepEqual(read.values, [{ n: 1, at: 1 }, { n: 2, at: 1 }, { n: 3, at: 2, nested: { text: 'é ☃ "quoted"\n \\ 😀 \u0001' } }]);
        assert.deepEqual([read.records, read.skipped], [3, 0]);
        assert.equal(read.positions.length, 3);
        await reopened.close();
      }));

    it('resolves concurrent appends once written, keeping each call together and the calls in call order', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        await Promise.all(Array.from({ length: 100 }, (_, i) => log.append([{ n: i, part: 0 }, { n: i, part: 1 }])));
        const expected = Array.from({ length: 100 }, (_, i) => [{ n: i, part: 0 }, { n: i, part: 1 }]).flat();
        assert.deepEqual((await readAll(log)).values, expected);
        await logs.close();
        const again = await (await place.open()).open('shop', timed);
        assert.deepEqual((await readAll(again)).values, expected);
        await again.close();
      }));

    it('keeps streams apart, returns one log per open stream, and refuses unsafe stream names', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const a = await logs.open('tenant-a', timed);
        assert.equal(await logs.open('tenant-a', timed), a);
        const b = await logs.open('tenant-b', timed);
        await a.append([{ from: 'a' }]);
        await b.append([{ from: 'b' }]);
        assert.deepEqual((await readAll(a)).values, [{ from: 'a' }]);
        assert.deepEqual((await readAll(b)).values, [{ from: 'b' }]);
        for (const stream of ['', '../up', 'a/b', '.hidden']) await assert.rejects(logs.open(stream, timed), /Invalid event-log stream name/, stream);
        await logs.close();
      }));

    it('finds the records whose field holds one of the values, in append order, and nothing else', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        await log.append([
          { n: 1, profileId: 'p1' },
          { n: 2, profileId: 'p2' },
          { n: 3, profileId: 'p10', note: { profileId: 'p1' } },
          { n: 4, profileId: 'p2', also: 'p1' },
          { n: 5, profileId: 'p1' },
          { n: 6, profileId: 1 },
        ]);
        const found = async (values: string[]) => {
          const records: unknown[] = [];
          await log.scan({ field: 'profileId', values }, (record) => records.push(record));
          return records.map((r) => (r as { n: number }).n);
        };
        assert.deepEqual(await found(['p1']), [1, 5]);
        assert.deepEqual(await found(['p2', 'p1']), [1, 2, 4, 5]);
        // A record holding two of the values (one in a nested field) is still handed over once.
        assert.deepEqual(await found(['p10', 'p1']), [1, 3, 5]);
        assert.deepEqual(await found(['nobody']), []);
        assert.deepEqual(await found([]), []);
        await logs.close();
      }));

    it('removes exactly the matching records, keeps the others in order with appends made meanwhile, also after a reopen', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        const pad = 'x'.repeat(150);
        for (let n = 1; n <= 12; n++) await log.append([{ n, at: n, profileId: n % 3 === 0 ? 'gone' : `p${n % 2}`, pad }]);
        await log.append([{ n: 13, at: 13, profileId: 'kept', note: { profileId: 'gone' }, pad }]);
        const removing = log.remove({ field: 'profileId', values: ['gone', 'also-gone'] });
        const during = log.append([{ n: 14, at: 14, profileId: 'p0', pad }]);
        assert.equal(await removing, 4);
        await during;
        const left = async (target: EventLog) => (await readAll(target)).values.map((v) => (v as { n: number }).n);
        assert.deepEqual(await left(log), [1, 2, 4, 5, 7, 8, 10, 11, 13, 14]);
        const scanned: unknown[] = [];
        await log.scan({ field: 'profileId', values: ['gone'] }, (record) => scanned.push(record));
        assert.deepEqual(scanned, []);
        assert.equal(await log.remove({ field: 'profileId', values: ['gone'] }), 0);
        await log.append([{ n: 15, at: 15, profileId: 'p1', pad }]);
        await logs.close();
        const reopened = await (await place.open()).open('shop', timed);
        assert.deepEqual(await left(reopened), [1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 15]);
        await reopened.close();
      }));

    it('drops records older than the cutoff but never newer ones, also after a reopen without replay', () =>
      withPlace(async (place) => {
        const now = 100 * DAY;
        const pad = 'x'.repeat(200);
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        for (let i = 0; i < 20; i++) await log.append([{ n: i, at: now - 3 * DAY, pad }]);
        for (let i = 20; i < 30; i++) await log.append([{ n: i, at: now, pad }]);
        assert.deepEqual(await log.dropBefore(now - 5 * DAY), []);
        assert.equal((await readAll(log)).values.length, 30);
        await logs.close();

        const reopened = await (await place.open()).open('shop', timed);
        const before = await readAll(reopened);
        const dropped = await reopened.dropBefore(now - DAY);
        assert.ok(dropped.length > 0, 'something old is dropped');
        const after = await readAll(reopened);
        const kept = after.values.map((r) => (r as { n: number }).n);
        assert.deepEqual(kept.slice(-10), Array.from({ length: 10 }, (_, i) => 20 + i), 'every new record stays');
        assert.ok(kept.length < 30, 'old records are gone');
        // The positions dropped were those of old records, and none of them is read back.
        for (const position of dropped) {
          assert.ok(before.positions.includes(position));
          assert.ok(!after.positions.includes(position));
        }
        for (const [i, value] of before.values.entries()) {
          if (dropped.includes(before.positions[i]!)) assert.ok((value as { at: number }).at < now - DAY);
        }
        await reopened.close();

        // Not replayed first: the adapter finds out on its own how old what it holds is.
        const third = await (await place.open()).open('shop', timed);
        await third.append([{ n: 30, at: now + 3 * DAY, pad }]);
        await third.dropBefore(now + DAY);
        const last = (await readAll(third)).values.map((r) => (r as { n: number }).n);
        assert.ok(last.includes(30));
        assert.ok(last.length < kept.length + 1, 'the records older than the new cutoff are dropped');
        await third.close();
      }));

    it('replays exactly the records after a cursor, across segments and later appends, and hands back where it ended', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        const pad = 'x'.repeat(150);
        const empty = await numbersAfter(log, undefined);
        assert.deepEqual(empty.numbers, []);
        for (let n = 0; n < 5; n++) await log.append([{ n, at: n, pad }]);
        assert.deepEqual((await numbersAfter(log, empty.cursor)).numbers, range(0, 5), 'a cursor of the empty log names its start');
        const afterFive = log.cursor();
        // Enough to fill several units of the engine (segments of 1 KB for the file adapter).
        for (let n = 5; n < 25; n++) await log.append([{ n, at: n, pad }]);
        const fromFive = await numbersAfter(log, afterFive);
        assert.deepEqual(fromFive.numbers, range(5, 25));
        assert.deepEqual((await numbersAfter(log, undefined)).numbers, range(0, 25), 'without a cursor, everything');
        const nothingNew = await numbersAfter(log, fromFive.cursor);
        assert.deepEqual(nothingNew.numbers, [], 'nothing was appended after the cursor a replay ended at');
        await Promise.all([log.append([{ n: 25, at: 25, pad }, { n: 26, at: 26, pad }]), log.append([{ n: 27, at: 27, pad }])]);
        assert.deepEqual((await numbersAfter(log, nothingNew.cursor)).numbers, [25, 26, 27], 'a cursor with nothing after it still resumes');
        assert.deepEqual((await numbersAfter(log, log.cursor())).numbers, [], 'cursor() names the end');
        await logs.close();
      }));

    it('keeps cursors valid across a reopen', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        await log.append([{ n: 1, at: 1 }, { n: 2, at: 2 }]);
        const cursor = log.cursor();
        await log.append([{ n: 3, at: 3 }]);
        await logs.close();
        const reopened = await (await place.open()).open('shop', timed);
        await reopened.append([{ n: 4, at: 4 }]);
        assert.deepEqual((await numbersAfter(reopened, cursor)).numbers, [3, 4]);
        await reopened.close();
      }));

    it('refuses a cursor it never gave, with StaleCursorError', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        await log.append([{ n: 1, at: 1 }]);
        for (const cursor of ['', 'not a cursor', '{"n":1}']) {
          await assert.rejects(log.replay(() => assert.fail('nothing is handed over'), { after: cursor }), StaleCursorError, JSON.stringify(cursor));
        }
        await logs.close();
      }));

    it('after a removal, a cursor from before it is refused or still exact', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        const pad = 'x'.repeat(150);
        for (let n = 0; n < 8; n++) await log.append([{ n, at: n, profileId: n % 2 === 0 ? 'gone' : 'kept', pad }]);
        const cursor = log.cursor();
        const middle = (await numbersAfter(log, undefined)).cursor;
        for (let n = 8; n < 12; n++) await log.append([{ n, at: n, profileId: n % 2 === 0 ? 'gone' : 'kept', pad }]);
        assert.equal(await log.remove({ field: 'profileId', values: ['gone'] }), 6);
        await log.append([{ n: 12, at: 12, profileId: 'kept', pad }]);
        await refusedOrExact(log, cursor, [9, 11, 12], 'cursor()');
        await refusedOrExact(log, middle, [9, 11, 12], 'a replay cursor');
        const fresh = log.cursor();
        await log.append([{ n: 13, at: 13, pad }]);
        assert.deepEqual((await numbersAfter(log, fresh)).numbers, [13], 'a cursor given after the removal resumes');
        await logs.close();
        const reopened = await (await place.open()).open('shop', timed);
        await refusedOrExact(reopened, cursor, [9, 11, 12, 13], 'cursor() after a reopen');
        assert.deepEqual((await numbersAfter(reopened, fresh)).numbers, [13]);
        await reopened.close();
      }));

    it('after retention dropped records, a cursor among them is refused or gives exactly the records still kept after it', () =>
      withPlace(async (place) => {
        const now = 100 * DAY;
        const pad = 'x'.repeat(200);
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        for (let n = 0; n < 10; n++) await log.append([{ n, at: now - 3 * DAY, pad }]);
        const cursor = log.cursor();
        for (let n = 10; n < 20; n++) await log.append([{ n, at: now - 3 * DAY, pad }]);
        for (let n = 20; n < 30; n++) await log.append([{ n, at: now, pad }]);
        assert.ok((await log.dropBefore(now - DAY)).length > 0);
        const kept = (await numbersAfter(log, undefined)).numbers;
        await refusedOrExact(log, cursor, kept.filter((n) => n >= 10), 'a cursor among dropped records');
        await logs.close();
      }));

    it('writes the appends made before close, and refuses appends after it', () =>
      withPlace(async (place) => {
        const logs = await place.open();
        const log = await logs.open('shop', timed);
        const pending = Array.from({ length: 10 }, (_, i) => log.append([{ n: i }]));
        await log.close();
        await Promise.all(pending);
        await assert.rejects(log.append([{ n: 10 }]), /closed/);
        await logs.close();
        const again = await (await place.open()).open('shop', timed);
        assert.deepEqual((await readAll(again)).values, Array.from({ length: 10 }, (_, i) => ({ n: i })));
        await again.close();
      }));
  });
}
