/**
 * Where an activity's CPU goes, stage by stage, in process (no HTTP): each stage runs alone over the
 * same realistic mix (activity-mix.ts) and is timed with the process's CPU clock (user + system), so
 * the figures hold on a loaded machine better than wall time would. The stages are the real code the
 * collection API runs: the body's JSON parse and schema validation, the profile and session behind
 * each shopper (most of them new), the durable log append with its group commit and fsync, and each
 * aggregate the server registers (folded one at a time over the same records). `recordActivities`
 * beside them is the whole tracking path without HTTP: append, history and every aggregate.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { activityMix, type MixActivity } from './activity-mix.js';
import { round } from './harness.js';
import type { DiscoveryServer } from '../packages/server/src/app/server.js';
import { collectBatchSchema } from '../packages/server/src/apis/collect/collect-schema.js';
import { parseInput } from '../packages/server/src/platform/validation.js';
import { newActivity } from '../packages/server/src/domains/tracking/new-activity.js';
import type { LoggedActivity } from '../packages/server/src/domains/tracking/activity-record.js';
import type { NewActivity } from '../packages/server/src/domains/tracking/activity-service.js';
import { FileEventLogs } from '../packages/server/src/platform/event-log/file-event-logs.js';

/** CPU microseconds (user + system) `work` takes, and its wall milliseconds. */
async function cpu(work: () => unknown): Promise<{ cpuUs: number; wallMs: number }> {
  const started = process.cpuUsage();
  const wall = performance.now();
  await work();
  const used = process.cpuUsage(started);
  return { cpuUs: used.user + used.system, wallMs: performance.now() - wall };
}

function inputOf(activity: MixActivity, profileId: string): NewActivity {
  const meta = activity.metadata ?? {};
  return newActivity({
    profileId,
    source: 'collect',
    verb: activity.action,
    type: 'product',
    itemId: activity.target.product,
    timestamp: Date.now(),
    sessionId: activity.user.sessionId,
    ...(typeof meta.query === 'string' ? { query: meta.query } : {}),
    ...(typeof meta.orderId === 'string' ? { orderId: meta.orderId, price: meta.price as number, quantity: meta.quantity as number, currency: meta.currency as string } : {}),
  });
}

export type StageRow = {
  stage: string;
  'CPU µs/activity': number;
  note: string;
};

/**
 * The stage costs on `server` (a running server whose tenant `tenantId` has a tracker key), over
 * `count` activities of the mix in batches of `batch`.
 */
export async function stageCosts(server: DiscoveryServer, tenantId: string, count: number, batch: number): Promise<StageRow[]> {
  const { services } = server.deps;
  const mix = activityMix(23);
  const batches = Array.from({ length: Math.ceil(count / batch) }, () => mix.batch(batch));
  const bodies = batches.map((activities) => JSON.stringify(activities));
  const per = (us: number) => round(us / count, 1);
  const rows: StageRow[] = [];

  const parsed = await cpu(() => {
    for (const body of bodies) parseInput(collectBatchSchema, JSON.parse(body));
  });
  rows.push({ stage: 'parse and validate (JSON.parse + the collect schema)', 'CPU µs/activity': per(parsed.cpuUs), note: `batches of ${batch}` });

  const profileIds: string[] = [];
  const profiles = await cpu(async () => {
    for (const activities of batches) {
      for (const activity of activities) profileIds.push((await services.activities.resolveProfile(tenantId, { sessionId: activity.user.sessionId })).profile.id);
    }
  });
  rows.push({ stage: 'profile and session (find or create, most shoppers new)', 'CPU µs/activity': per(profiles.cpuUs), note: 'lowdb profile shards' });

  // The log alone: the file adapter the companion uses, one group commit (write + fsync) per batch.
  const dir = await mkdtemp(join(tmpdir(), 'bench-stage-log-'));
  const logs = new FileEventLogs({ directory: dir, segmentBytes: 64 * 1024 * 1024 });
  const log = await logs.open('bench', { timeField: 'receivedAt' });
  let n = 0;
  const records: LoggedActivity[][] = batches.map((activities) =>
    activities.map((activity) => ({ kind: 'activity', id: `a${n}`, tenant: tenantId, receivedAt: Date.now(), ...inputOf(activity, profileIds[n++]!) }) as LoggedActivity),
  );
  const appended = await cpu(async () => {
    for (const group of records) await log.append(group);
  });
  await logs.close();
  await rm(dir, { recursive: true, force: true });
  rows.push({ stage: 'log append with group commit and fsync (file adapter)', 'CPU µs/activity': per(appended.cpuUs), note: `${round((appended.wallMs * 1000) / records.length, 0)} µs wall per batch (one fsync each)` });

  // Each aggregate alone, folding the same records (the server's own instances).
  const aggregates: Array<[string, (record: LoggedActivity, profileId: string) => void]> = [
    ['popularity, co-occurrence, baskets (recommendation aggregates)', (r, p) => services.recommendations.aggregates.fold(tenantId, r, p)],
    ['query statistics (autocomplete)', (r, p) => services.queryStatistics.fold(tenantId, r, p)],
    ['widget analytics', (r) => services.analytics.widgets.fold(tenantId, r)],
    ['experiments ledger', (r, p) => services.experiments.ledger.fold(tenantId, r, p)],
    ['search learning', (r, p) => services.search.learning?.fold(tenantId, r, p)],
    ['query analytics (search clicks and conversions)', (r) => services.searchAnalytics.recordActivity(r)],
  ];
  for (const [name, fold] of aggregates) {
    const folded = await cpu(() => {
      for (const group of records) for (const record of group) fold(record, record.profileId);
    });
    rows.push({ stage: `fold: ${name}`, 'CPU µs/activity': per(folded.cpuUs), note: '' });
  }

  // The whole tracking path without HTTP: durable append, profile history and every aggregate, per batch.
  let m = 0;
  const inputs = batches.map((activities) => activities.map((activity) => inputOf({ ...activity, user: { sessionId: `again-${activity.user.sessionId}` } }, profileIds[m++]!)));
  const whole = await cpu(async () => {
    for (const group of inputs) await services.activities.recordActivities(tenantId, group);
  });
  rows.push({ stage: 'recordActivities (append + history + every aggregate, no HTTP)', 'CPU µs/activity': per(whole.cpuUs), note: `${round(count / (whole.wallMs / 1000), 0)} activities/s wall, one caller` });

  // What every other process of a shared log spends on an activity it did not take: the follower's JSON
  // parse of the logged text, the anonymous profile's adoption, the history and every aggregate (the
  // tenant's own code for records another process appended; new shoppers, as in the mix).
  const state = (services.activities as unknown as { tenant(id: string): { foldOthers(values: unknown[], caughtUp: boolean): void } }).tenant(tenantId);
  let o = 0;
  const lines = batches.map((activities) =>
    activities.map((activity) => {
      const profileId = `other-${o++}`;
      return JSON.stringify({ kind: 'activity', id: `o${o}`, tenant: tenantId, receivedAt: Date.now(), ...inputOf({ ...activity, user: { sessionId: `other-${activity.user.sessionId}` } }, profileId) });
    }),
  );
  const followed = await cpu(() => {
    for (const group of lines) state.foldOthers(group.map((line) => JSON.parse(line) as unknown), true);
  });
  rows.push({ stage: "fold of another process's records (the follower's parse + adoption + history + every aggregate)", 'CPU µs/activity': per(followed.cpuUs), note: 'bounds a cluster: s / fold (docs/scale-out.md)' });
  return rows;
}
