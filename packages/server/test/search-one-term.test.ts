/**
 * A one-word query answered by one term is scored in a single pass (matcher.ts `matchOneTerm`): its
 * lists are walked from the highest score down and each document keeps the first score it gets. These
 * tests hold it to the general path's answers (every document and score, for every start of every
 * catalog word, whole words, other forms) on a catalog where words sit in several fields and at many
 * positions, some words are both whole and the start of longer ones, and some titles are one word.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SearchIndex } from '../src/domains/search/index/search-index.js';
import { matchQuery, queryWords } from '../src/domains/search/query/matcher.js';
import { planQuery } from '../src/domains/search/query/query-plan.js';
import type { SearchConfiguration } from '../src/platform/config/schema.js';
import { SEARCH_ENV as E, SEARCH_TENANT as T, SEARCH_TOKEN as TOKEN, startSearchCatalog, type SearchCatalog } from './support/search-catalog.js';

const CONFIGURATION = {
  id: 'default',
  fields: [
    { attribute: 'title', weight: 3 },
    { attribute: 'brand', weight: 2 },
    { attribute: 'description', weight: 1 },
  ],
  facets: [],
  defaultSort: [],
};
/** "lamp" and "lampshade", "table" and "tablecloth": whole words that also start longer ones. */
const WORDS = ['lamp', 'lampshade', 'lantern', 'light', 'table', 'tablecloth', 'red', 'blue', 'candle', 'holder', 'glass', 'wooden', 'star', 'starlight'];
const BRANDS = ['Lumo', 'Tablewise', 'Starco', 'Glassworks'];

let shop: SearchCatalog;
let index: SearchIndex;
let configuration: SearchConfiguration;

function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}

before(async () => {
  const r = rng(5);
  const pick = <V>(list: readonly V[]): V => list[Math.floor(r() * list.length)]!;
  shop = await startSearchCatalog({
    configuration: CONFIGURATION,
    attributes: ['title', 'brand', 'description'],
    items: (version) =>
      Array.from({ length: 400 }, (_, n) => {
        // Titles of one to twelve words, so a word lands at every position FlexSearch scores apart;
        // every 37th title is a single catalog word, which a query of that word must put first.
        const title = n % 37 === 0 ? pick(WORDS) : Array.from({ length: 1 + Math.floor(r() * 12) }, () => pick(WORDS)).join(' ');
        // "oak" is in descriptions only, once or twice: a term of one field, which FlexSearch lists once per item.
        const description = [...Array.from({ length: Math.floor(r() * 15) }, () => pick(WORDS)), ...(n % 3 === 0 ? ['oak', 'red', 'oak'] : n % 3 === 1 ? ['oak'] : [])].join(' ');
        return { id: `p${n}`, catalogVersion: version, type: 'product', attributes: { title, brand: pick(BRANDS), description } };
      }),
  });
  index = new SearchIndex(await shop.server.deps.services.catalog.allItems(T, E, shop.version), ['title', 'brand', 'description']);
  configuration = shop.server.deps.registry.searchToken(TOKEN).token.configurations[0]!;
});

after(() => shop.close());

/** Each matching document's score, read before the next query reuses the matcher's arrays. */
function answer(config: SearchConfiguration, query: string, oneTerm: boolean): { scores: Map<number, number>; listed: number; spelledRight: boolean } {
  const plan = planQuery(index.vocabulary, config, queryWords(query));
  const matches = matchQuery(index, config, plan.words, oneTerm);
  const scores = new Map<number, number>();
  for (let i = 0; i < matches.docs.length; i++) scores.set(matches.docs[i]!, matches.scores[i]!);
  return { scores, listed: matches.docs.length, spelledRight: matches.spelledRight };
}

describe('one-word queries scored in one pass', () => {
  it('give every document the score the general path gives it', () => {
    const words = new Set([...WORDS, ...BRANDS.map((b) => b.toLowerCase()), 'oak']);
    const queries = new Set<string>();
    for (const word of words) for (let length = 1; length <= word.length; length++) queries.add(word.slice(0, length));
    // Other forms and words the catalog only has in another form: terms that must match whole words.
    for (const extra of ['lamps', 'lanterns', 'tables', 'candles', 'stars', 'holders']) queries.add(extra);
    // The shop's weights, whose lists come in score order field by field, and weights listed out of
    // order whose positions interleave (a late title word below an early description word).
    const interleaved = { ...configuration, fields: [{ attribute: 'description', weight: 1.2 }, { attribute: 'title', weight: 1.5 }, { attribute: 'brand', weight: 2 }] };
    let oneTermQueries = 0;
    for (const config of [configuration, interleaved]) {
      for (const query of queries) {
        const plan = planQuery(index.vocabulary, config, queryWords(query));
        if (plan.words.length === 1 && plan.words[0]!.terms.length === 1 && !plan.words[0]!.terms[0]!.typo) oneTermQueries++;
        const fast = answer(config, query, true);
        const general = answer(config, query, false);
        assert.equal(fast.spelledRight, general.spelledRight, `${query}: spelt right`);
        assert.equal(fast.scores.size, general.scores.size, `${query}: matches`);
        assert.equal(fast.listed, fast.scores.size, `${query}: each match listed once`);
        for (const [doc, score] of general.scores) assert.equal(fast.scores.get(doc), score, `${query}: score of slot ${doc}`);
      }
    }
    // Most of these queries take the one-pass path (the rest, several terms, are compared all the same).
    assert.ok(oneTermQueries > queries.size, `${oneTermQueries} of ${2 * queries.size} one-term queries`);
  });

  it('put a product whose title is the word first, and the word in a title above it elsewhere', () => {
    const search = shop.server.deps.services.search;
    const configurationOf = shop.server.deps.registry.searchToken(TOKEN).token.configurations[0]!;
    for (const word of ['lantern', 'candle', 'star']) {
      const result = search.search({ tenantId: T, environmentId: E, configuration: configurationOf, query: word, offset: 0, limit: 400, sortBy: [], facets: [], filter: undefined, disabled: new Set() });
      const titles = result.items.map((hit) => String(hit.product?.title ?? '').toLowerCase());
      const exact = titles.indexOf(word);
      if (exact >= 0) assert.equal(exact, 0, `${word}: the one-word title first`);
      // The whole word in the title outscores any match outside it (a title's last position scores 3 × 0.84, a brand's first 2).
      const lastWhole = titles.reduce((last, title, i) => (title.split(' ').includes(word) ? i : last), -1);
      const firstElsewhere = titles.findIndex((title) => !title.split(' ').some((w) => w.startsWith(word)));
      assert.ok(lastWhole >= 0 && firstElsewhere >= 0, `${word}: both kinds of match present`);
      assert.ok(lastWhole < firstElsewhere, `${word}: whole-word titles before matches outside the title`);
      assert.ok(result.count > 0, `${word} matches`);
    }
  });
});
