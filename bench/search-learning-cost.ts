/**
 * What search learning adds to an in-process search (issue 37's bar: at most 10% of the median): the
 * same queries with learning off and on, in alternating rounds so that a drifting machine weighs on
 * both alike, after one query in ten got votes from five shoppers (their lifts then apply).
 */
import type { SearchQuery, SearchService } from '../packages/server/src/domains/search/search-service.js';
import type { ActivityService } from '../packages/server/src/domains/tracking/activity-service.js';
import { newActivity } from '../packages/server/src/domains/tracking/new-activity.js';
import { measure, round } from './harness.js';

const ROUNDS = 3;

export async function learningCost(options: { search: SearchService; activities: ActivityService; tenantId: string; queries: readonly string[]; request: (query: string) => SearchQuery }): Promise<Array<Record<string, string | number>>> {
  const { search, queries, request } = options;
  const batch = [];
  for (let q = 0; q < queries.length; q += 10) {
    const shown = search.search(request(queries[q]!)).items;
    const item = shown.at(-1);
    if (item === undefined) continue;
    for (let s = 0; s < 5; s++) batch.push(newActivity({ profileId: `bench-voter-${q}-${s}`, source: 'collect', verb: 'click', type: 'product', itemId: item.id, timestamp: Date.now(), query: queries[q]!, details: { metadata: { position: shown.length } } }));
  }
  await options.activities.recordActivities(options.tenantId, batch);
  const on = request(queries[0]!).configuration;
  const off = { ...on, learning: { ...on.learning, enabled: false } };
  const medians = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, configuration] of [['off', off], ['on', on]] as const) {
      const stats = await measure(1_000, (i) => search.search({ ...request(queries[i % queries.length]!), configuration }), 100);
      medians[name].push(stats.medianMs);
    }
  }
  const median = (list: number[]) => list.toSorted((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const offMs = median(medians.off);
  const onMs = median(medians.on);
  return [
    { step: `in process, learning off (${ROUNDS} alternating rounds of 1,000 queries, median of the medians)`, medianMs: offMs },
    { step: `in process, learning on, ${batch.length / 5} of ${queries.length} queries learned`, medianMs: onMs, ratio: round(onMs / offMs, 3) },
  ];
}
