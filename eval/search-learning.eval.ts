/**
 * Search learning on the demo catalog (`npm run eval -- search-learning`): simulated shoppers with
 * hidden preferences search, look at the results with a position-biased eye, click and sometimes buy;
 * their activities go through the activity service POST /collect calls, and the search service answers
 * with what was learned. No model is pretrained: everything is learned from the simulated sessions.
 *
 * Per query, two items the text order ranks between 4th and 20th are the ones shoppers want (hidden).
 * A shopper examines rank r with probability r^-0.8 (the eval's click model is deliberately not the
 * 1/r curve learning corrects with), clicks an examined item with probability 0.7 when wanted and 0.08
 * otherwise, and buys a clicked item with probability 0.3 when wanted and 0.02 otherwise.
 * Figures: NDCG@10 and recall@10 of the wanted items before learning and after 20, 50 and 150 shoppers
 * per query; a one-session click flood and a many-session one; queries nobody acted on; the lift of a
 * shopper's own interests (affinityLift below); and the demo relevance set of issue 14 (first-page
 * precision), before and after.
 * Options: `--seed N` (default 7), `--queries N` (default 10).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalResult, Evaluation } from './run.js';
import { seededRandom as random, shuffle } from './seeded-shuffle.js';
import { startCompanion } from '../apps/companion/src/companion.js';
import { DEMO_CONFIG } from '../apps/companion/src/options.js';
import { createLogger } from '../packages/server/src/platform/logger.js';
import { newActivity } from '../packages/server/src/domains/tracking/new-activity.js';
import type { NewActivity } from '../packages/server/src/domains/tracking/activity-service.js';
import type { SearchQuery, SearchService } from '../packages/server/src/domains/search/search-service.js';
import type { ActivityService } from '../packages/server/src/domains/tracking/activity-service.js';
import { judgeSet } from '../bench/relevance/judge.js';
import { DEMO_QUERIES } from '../bench/relevance/demo-queries.js';

const K = 10;
const SHOWN = 20;
const CHECKPOINTS = [20, 50, 150];
/** Queries tried in order until enough have 25 or more matches. */
const CANDIDATES = ['mug', 'candle', 'bag', 'lantern', 'cushion', 'box', 'heart', 'christmas', 'card', 'bowl', 'clock', 'frame', 'jar', 'tin', 'set', 'light', 'bottle', 'glass', 'wall', 'paper'];

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** NDCG@k and recall@k of `wanted` (binary gains) in `ranked`. */
function quality(ranked: readonly string[], wanted: ReadonlySet<string>): { ndcg: number; recall: number } {
  let dcg = 0;
  let found = 0;
  ranked.slice(0, K).forEach((id, i) => {
    if (!wanted.has(id)) return;
    dcg += 1 / Math.log2(i + 2);
    found++;
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(K, wanted.size); i++) ideal += 1 / Math.log2(i + 2);
  return { ndcg: dcg / ideal, recall: found / wanted.size };
}

const evaluation: Evaluation = async () => {
  const seed = Number(option('seed') ?? 7);
  const queryCount = Number(option('queries') ?? 10);
  const dataDir = await mkdtemp(join(tmpdir(), 'discovery-eval-learning-'));
  const companion = await startCompanion({ configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir, demo: true, demoActivities: false, logLevel: 'silent', sdkDir: dataDir }, createLogger('silent'));
  try {
    const { deps } = companion.server;
    const { search, activities } = deps.services;
    const ref = deps.registry.searchToken('demo-search-token');
    const tenantId = ref.tenant.id;
    const configuration = ref.token.configurations.find((c) => c.id === (ref.token.defaultConfigurationId ?? ref.token.configurations[0]!.id))!;
    // The engine's answer each time, not a cached one: the figures follow every vote.
    search.resultCacheSize = 0;
    const request = (query: string, limit = SHOWN): SearchQuery => ({ tenantId, environmentId: ref.environment.id, configuration, query, offset: 0, limit, sortBy: [], facets: [], filter: undefined, disabled: new Set() });
    const ranked = (query: string, limit = SHOWN) => search.search(request(query, limit)).items.map((hit) => hit.id);
    const rng = random(seed);

    const queries = CANDIDATES.filter((query) => search.search(request(query, 0)).count >= 25).slice(0, queryCount);
    const wanted = new Map(queries.map((query) => [query, new Set(shuffle(ranked(query).slice(3, SHOWN), seed + query.length).slice(0, 2))]));
    // Queries learned under a trained query's key (its plurals, typos: "lanterns", "lantren") share its order by design.
    const learningKey = (query: string) => search.learningKey(tenantId, ref.environment.id, configuration, query);
    const trainedKeys = new Set(queries.map(learningKey));
    const sharing = DEMO_QUERIES.map((q) => q.query).filter((query) => trainedKeys.has(learningKey(query)));
    const untouched = DEMO_QUERIES.map((q) => q.query).filter((query) => !trainedKeys.has(learningKey(query)));
    const untouchedBefore = new Map(untouched.map((query) => [query, ranked(query, K).join(',')]));
    const judge = () => judgeSet(DEMO_QUERIES, async (query) => search.search(request(query, K)).items.map((hit) => String(hit.product?.title ?? '')));
    const relevanceBefore = await judge();

    const curve: Array<Record<string, string | number>> = [];
    const measureCurve = (shoppers: number) => {
      const scores = queries.map((query) => quality(ranked(query, K), wanted.get(query)!));
      curve.push({ shoppersPerQuery: shoppers, ndcgAt10: round(scores.reduce((n, s) => n + s.ndcg, 0) / scores.length), recallAt10: round(scores.reduce((n, s) => n + s.recall, 0) / scores.length) });
    };
    measureCurve(0);
    let shopper = 0;
    for (let done = 0, c = 0; c < CHECKPOINTS.length; c++) {
      const target = CHECKPOINTS[c]!;
      for (; done < target; done++) {
        const batch: NewActivity[] = [];
        for (const query of queries) {
          const profileId = `eval-shopper-${shopper++}`;
          const shown = ranked(query);
          const likes = wanted.get(query)!;
          shown.forEach((item, i) => {
            if (rng() >= (i + 1) ** -0.8) return;
            const liked = likes.has(item);
            if (rng() >= (liked ? 0.7 : 0.08)) return;
            const at = Date.now();
            batch.push(newActivity({ profileId, source: 'collect', verb: 'click', type: 'product', itemId: item, timestamp: at, query, details: { metadata: { position: i + 1 } } }));
            if (rng() < (liked ? 0.3 : 0.02)) batch.push(newActivity({ profileId, source: 'collect', verb: 'purchase', type: 'product', itemId: item, timestamp: at, price: 10, quantity: 1 }));
          });
        }
        if (batch.length > 0) await activities.recordActivities(tenantId, batch);
      }
      measureCurve(target);
      console.error(`  ${target} shoppers per query`);
    }

    // Floods on a query nobody else acted on: its 12th item, clicked by one session 500 times, then by 20 sessions once each.
    const floodQuery = untouched.find((query) => search.search(request(query, 0)).count >= 15) ?? 'garland';
    const floodOrder = ranked(floodQuery);
    const floodItem = floodOrder[11]!;
    const click = (profileId: string) => newActivity({ profileId, source: 'collect', verb: 'click', type: 'product', itemId: floodItem, timestamp: Date.now(), query: floodQuery, details: { metadata: { position: 12 } } });
    // Through the collection API's path: from one public address (documentation ranges), as an attacker's machine sends them.
    await activities.recordActivities(tenantId, Array.from({ length: 500 }, () => click('eval-flooder')), { address: '203.0.113.7' });
    const afterOneSession = ranked(floodQuery).indexOf(floodItem) + 1;
    await activities.recordActivities(tenantId, Array.from({ length: 20 }, (_, i) => click(`eval-sybil-${i}`)), { address: '203.0.113.7' });
    const afterOneAddress = ranked(floodQuery).indexOf(floodItem) + 1;
    for (let i = 0; i < 20; i++) await activities.recordActivities(tenantId, [click(`eval-botnet-${i}`)], { address: `198.51.100.${i + 1}` });
    const afterManySessions = ranked(floodQuery).indexOf(floodItem) + 1;

    const affinity = await affinityLift({ search, activities, tenantId, request, queries: CANDIDATES, seed });
    const leads = await leadRecall({ search, activities, tenantId, request, queries, seed });

    const changed = untouched.filter((query) => query !== floodQuery && ranked(query, K).join(',') !== untouchedBefore.get(query));
    const relevanceAfter = await judge();
    const result: EvalResult = {
      name: 'search learning',
      setup: { catalog: 'demo catalog (apps/companion/demo)', seed, queries: queries.join(', '), wantedPerQuery: 2, clickModel: 'examine rank r with r^-0.8; click 0.7 wanted / 0.08 other; buy 0.3 / 0.02' },
      tables: [
        { title: 'Learning curve (wanted items in the first 10)', rows: curve },
        {
          title: 'Click floods on a query nobody else acted on',
          rows: [
            { flood: `one session clicks the 12th item of "${floodQuery}" 500 times`, positionBefore: 12, positionAfter: afterOneSession },
            { flood: 'then 20 different sessions behind one address click it once each', positionBefore: 12, positionAfter: afterOneAddress },
            { flood: 'then 20 sessions from 20 addresses click it once each', positionBefore: 12, positionAfter: afterManySessions },
          ],
        },
        { title: 'Queries nobody acted on (the flood query aside)', rows: [{ queries: untouched.length - 1, firstPageChanged: changed.length }] },
        { title: 'Judged queries sharing a trained key (plurals, typos: one key by design)', rows: [{ queries: sharing.length, examples: sharing.slice(0, 8).join(', ') }] },
        {
          title: `The shopper's own interests: share of the first 10 in the category a shopper viewed 3 other items of (${affinity.shoppers} shoppers)`,
          rows: [
            { personalisation: 'off (options.disable personalization)', share: affinity.off },
            { personalisation: 'on (impact 50, the default)', share: affinity.on },
          ],
        },
        {
          title: `Queries that lead to products: ${leads.queries} made-up queries matching nothing, 3 wanted products each found through a second query (recall@10 of the wanted)`,
          rows: leads.rows,
        },
        {
          title: 'Relevance set of issue 14 (demo catalog, first-page precision)',
          rows: [
            { when: 'before learning', precision: round(relevanceBefore.mean), empty: relevanceBefore.empty.length },
            { when: 'after learning', precision: round(relevanceAfter.mean), empty: relevanceAfter.empty.length },
          ],
        },
      ],
      notes: [
        'Sessions behind one address count as two shoppers at most (the activity origin); 20 sessions from 20 addresses are 20 shoppers: only minShoppers and shrinkage stand in their way (docs/search.md, "Abuse").',
        ...(changed.length > 0 ? [`Changed without votes: ${changed.join(', ')}`] : []),
      ],
    };
    return result;
  } finally {
    await companion.server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

/**
 * Queries that lead to products. Each trained query gets a made-up twin the catalog's words do not match
 * (a shop's vocabulary gap: "kittyhome" for cat-shaped things). A shopper searches the twin (a results
 * page view, as the toolkit sends it), finds nothing, searches the real query, examines its first 20
 * with the position-biased eye, clicks what they want (0.7; 0.08 other), and carts a clicked wanted item
 * with probability 0.5 (0.03 other). Recall@10 of the twin's three wanted items, as shoppers arrive; and
 * with AI Search (`aiSearch`: clicks count too) at the first checkpoint.
 */
async function leadRecall(options: {
  search: SearchService;
  activities: ActivityService;
  tenantId: string;
  request: (query: string, limit?: number) => SearchQuery;
  queries: readonly string[];
  seed: number;
}): Promise<{ queries: number; rows: Array<Record<string, string | number>> }> {
  const { search, activities, tenantId, request } = options;
  const rng = random(options.seed + 2);
  const twin = (query: string) => `zorb${[...query].reverse().join('')}`;
  const pairs = options.queries.filter((query) => search.search(request(twin(query), 0)).count === 0);
  const wanted = new Map(pairs.map((query) => [query, new Set(shuffle(search.search(request(query, SHOWN)).items.map((hit) => hit.id), options.seed + query.length).slice(0, 3))]));
  const recall = (aiSearch: boolean) => {
    let sum = 0;
    for (const query of pairs) {
      const first = search.search({ ...request(twin(query), K), aiSearch }).items.map((hit) => hit.id);
      sum += first.filter((id) => wanted.get(query)!.has(id)).length / 3;
    }
    return round(sum / Math.max(1, pairs.length));
  };
  const rows: Array<Record<string, string | number>> = [{ shoppersPerQuery: 0, recallAt10: recall(false), recallAt10AiSearch: recall(true) }];
  let shopper = 0;
  let done = 0;
  for (const target of [3, 5, 10, 20, 50]) {
    for (; done < target; done++) {
      const batch: NewActivity[] = [];
      for (const query of pairs) {
        const profileId = `eval-gap-${shopper++}`;
        const at = Date.now();
        batch.push(newActivity({ profileId, source: 'collect', verb: 'view', type: 'page', itemId: '/search', timestamp: at, query: twin(query) }));
        search.search(request(query, SHOWN)).items.forEach((hit, i) => {
          if (rng() >= (i + 1) ** -0.8) return;
          const liked = wanted.get(query)!.has(hit.id);
          if (rng() >= (liked ? 0.7 : 0.08)) return;
          batch.push(newActivity({ profileId, source: 'collect', verb: 'click', type: 'product', itemId: hit.id, timestamp: at, query, details: { metadata: { position: i + 1 } } }));
          if (rng() < (liked ? 0.5 : 0.03)) batch.push(newActivity({ profileId, source: 'collect', verb: 'add-to-cart', type: 'product', itemId: hit.id, timestamp: at }));
        });
      }
      await activities.recordActivities(tenantId, batch);
    }
    rows.push({ shoppersPerQuery: target, recallAt10: recall(false), recallAt10AiSearch: recall(true) });
  }
  return { queries: pairs.length, rows };
}

/**
 * Shoppers each with a hidden favourite category: one among a query's matches ranked 11th to 50th;
 * each views three other items of it (through the activity service), then searches the query as a
 * known shopper. The share of the first page in that category, with their interests and without.
 */
async function affinityLift(options: {
  search: SearchService;
  activities: ActivityService;
  tenantId: string;
  request: (query: string, limit?: number) => SearchQuery;
  queries: readonly string[];
  seed: number;
}): Promise<{ shoppers: number; off: number; on: number }> {
  const { search, activities, tenantId, request } = options;
  const rng = random(options.seed + 1);
  const categoryOf = (item: { attributes: Record<string, unknown> }) => String(item.attributes.categories ?? '');
  let off = 0;
  let on = 0;
  let shoppers = 0;
  for (let n = 0; n < 40; n++) {
    const query = options.queries[n % options.queries.length]!;
    const deep = search.search({ ...request(query, 50), ordered: 50 }).ordered.slice(10).map(({ item }) => item);
    const categories = [...new Set(deep.map(categoryOf).filter((c) => c !== ''))];
    if (categories.length === 0) continue;
    const favourite = categories[Math.floor(rng() * categories.length)]!;
    const shown = new Set(search.search(request(query, 50)).items.map((hit) => hit.id));
    const others = search.search({ ...request('', 30), facets: [{ id: 'category', values: [favourite] }] }).items.map((hit) => hit.id).filter((id) => !shown.has(id)).slice(0, 3);
    if (others.length === 0) continue;
    const profileId = `eval-fan-${n}`;
    await activities.recordActivities(tenantId, others.map((itemId) => newActivity({ profileId, source: 'collect', verb: 'view', type: 'product', itemId, timestamp: Date.now() })));
    const shopper = { events: activities.history(tenantId, profileId, { type: 'product' }), now: Date.now() };
    const share = (disabled: Set<string>) => {
      const first = search.search({ ...request(query, K), ordered: K, shopper, disabled }).ordered;
      return first.filter(({ item }) => categoryOf(item) === favourite).length / Math.max(1, first.length);
    };
    off += share(new Set(['personalization']));
    on += share(new Set());
    shoppers++;
  }
  return { shoppers, off: round(off / Math.max(1, shoppers)), on: round(on / Math.max(1, shoppers)) };
}

export default evaluation;
