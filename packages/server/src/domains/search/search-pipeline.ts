/**
 * The query pipeline over one index: match the words (relaxed-match.ts), filter, select and count
 * facets, order (merchandising tiers, the requested sort, relevance, the default sort), pin, page,
 * and shape the hits (search-response.ts).
 */
import type { StoredItem } from '../catalog/types.js';
import type { SearchConfiguration } from '../../platform/config/schema.js';
import type { FilterNode } from '../../platform/filter-language/filter-tree.js';
import type { QuerySpelling } from './analytics/search-queries.js';
import { fold } from './index/analyzer.js';
import { countFacets, type FacetResult } from './facets/facets.js';
import { filterAndCountFacets, type FacetBase } from './facets/facet-pass.js';
import { compileBatchFilter } from './filter/filter-batch.js';
import { keepBits } from './filter/filter-bits.js';
import type { HighlightTerms } from './response/highlight.js';
import { allDocuments } from './query/wordless-match.js';
import { firstInOrder, type EntryOrder } from './order/ranking.js';
import { highlightTermsOf, relaxedMatch, spellingOf } from './query/relaxed-match.js';
import { groupInOrder, hitOf, type GroupBy, type SearchGroup, type SearchHit } from './response/search-response.js';
import type { SearchDoc, SearchIndex, SortKey } from './index/search-index.js';
import type { ContextVariables, Merchandising } from './rules/context-rules.js';
import { applyLifts, joinLeads, learningKeyOf, resetOf, type LearnedSource } from './learning/learned-signal.js';
import { affinitiesOf, affinityAttributes, applyAffinities, type ShopperEvent } from './learning/shopper-affinities.js';

export interface SearchQuery {
  tenantId: string;
  environmentId: string;
  configuration: SearchConfiguration;
  query: string;
  offset: number;
  limit: number;
  sortBy: SortKey[];
  facets: { id: string; values: string[] }[];
  /** The filter text, as the search API receives it in `options.filter` (docs/search.md). */
  filter: string | undefined;
  disabled: Set<string>;
  /**
   * Also return the matches in order: all of them (`true`), or the first n (the admin's explanation);
   * a plain search pages without sorting them all.
   */
  ordered?: boolean | number;
  /** Suggest's groups of the matches (search-response.ts `groupInOrder`), answered in `groups`. */
  groupBy?: GroupBy;
  /** Count only this configured facet (autocomplete's category suggestions read one): the others' passes are skipped. */
  onlyFacet?: string;
  /** The request's context variables the configuration declares: rules' `when` conditions read them (context-rules.ts). */
  variables?: ContextVariables;
  /** AI Search (`options.aiSearch`): products shoppers only clicked after searching the query join it too (learning/query-leads.ts). */
  aiSearch?: boolean;
  /** The known shopper's recent product activities, newest first: their interests lift matching items (learning/shopper-affinities.ts). */
  shopper?: { events: readonly ShopperEvent[]; now: number };
}

export interface SearchResult {
  items: SearchHit[];
  count: number;
  /** Always true: every match is counted (no scoring cap). Kept because the response carries it. */
  exact: boolean;
  facets: FacetResult[];
  /** Every match in result order, when the query asked for it (`ordered`: suggest's groups); otherwise empty. */
  ordered: { doc: SearchDoc; item: StoredItem; score: number; joined?: true }[];
  /** The matches grouped as `groupBy` asked (suggest); otherwise empty. */
  groups: SearchGroup[];
  /** Items the query's words matched before filters and facets (what autocomplete calls "returned results"). */
  matched: number;
  /** How the query's words matched: as typed (or as prefixes/synonyms), only through typo correction, or not at all. */
  spelling: QuerySpelling;
  /** The query as run, when it differs from the typed one (typo corrected, word split). */
  corrected: string | undefined;
  /** No item matched every word: some words were left out rather than answer nothing. */
  relaxed: boolean;
  /** What highlighting marks in the answered items. */
  highlight: HighlightTerms;
  version: number | undefined;
  /** The key the search is learned under (learning/query-key.ts), when learning is on for it. */
  learningKey: string | undefined;
  /** Matches the learned order moved (0: the text order stands). */
  learned: number;
  /** Products that joined the matches as the query's leads (learning/query-leads.ts), before filters. */
  joined: number;
  /** The shopper's interests changed scores (`metadata.personalized`). */
  personalized: boolean;
}

const NO_HIGHLIGHT: HighlightTerms = { terms: [], typing: undefined };

/** The answer of an environment without an active index. */
export function emptyResult(): SearchResult {
  return { items: [], count: 0, exact: true, facets: [], ordered: [], groups: [], matched: 0, spelling: 'none', corrected: undefined, relaxed: false, highlight: NO_HIGHLIGHT, version: undefined, learningKey: undefined, learned: 0, joined: 0, personalized: false };
}

/**
 * Runs `request` over `index` (of catalog `version`); `queryText` is the request's folded words, `rules`
 * what the configuration's rules and redirects fire for it (their filters are already in `filter`).
 * `learned`, when given, holds what shoppers taught (learning/), applied when the configuration and the request allow.
 */
export function runSearch(request: SearchQuery, index: SearchIndex, version: number, queryText: string[], filter: FilterNode | undefined, rules: Merchandising, learned?: LearnedSource): SearchResult {
  const config = request.configuration;
  const normalised = queryText.join(' ');
  const run = normalised === '' ? undefined : relaxedMatch(index, config, queryText, { correct: !request.disabled.has('correction') });
  const matches = run === undefined ? allDocuments(index) : run.matches;
  let { docs, scores } = matches;
  let length = docs.length;

  // Learning on for this request: its key is the query as run (corrected), or a browse request's selections.
  const learningOn = learned !== undefined && config.learning.enabled && !request.disabled.has('learning');
  const learningKey = learningOn ? learningKeyOf(config, run?.plan.corrected ?? normalised, request) : undefined;
  // Products shoppers went on to buy after searching this query join its matches (learning/query-leads.ts),
  // before filters and facets, which apply to them as to any match.
  const leads = learningKey === undefined || run === undefined || !config.learning.leads || request.disabled.has('leads') ? undefined : learned!.leads(request.tenantId, learningKey, config.learning, resetOf(config, learningKey), request.aiSearch === true);
  let joined: ReadonlySet<number> | undefined;
  if (leads !== undefined) ({ docs, scores, length, joined } = joinLeads(index, leads, docs, scores, length));

  // A filter requested before is one bit per slot (filter-bits.ts); a new one is evaluated on the matches.
  const bits = filter === undefined || request.filter === undefined ? undefined : index.filterBits.get(request.filter, filter);
  if (filter !== undefined && bits === undefined) {
    const keep = compileBatchFilter(
      filter,
      (attribute) => index.values(attribute),
      (attribute) => index.numbers(attribute),
    );
    length = keep(docs, scores, length);
  }
  // Bits still to apply: with the facets' pass below when it can, on their own otherwise.
  let pending = bits;

  // Shoppers' selections come back as typed in URLs, so case and accents do not decide a match.
  const selections = new Map(request.facets.filter((f) => f.values.length > 0).map((f) => [f.id, new Set(f.values.map(fold))]));
  const facetsOn = !request.disabled.has('facet');
  let facets: FacetResult[] = [];
  const facetConfigs = request.onlyFacet === undefined ? config.facets : config.facets.filter((facet) => facet.id === request.onlyFacet);
  if (facetConfigs.length > 0 && (facetsOn || selections.size > 0)) {
    const columns = facetConfigs.map((facet) => index.facetColumn(facet));
    // The usual shape (a repeated filter or none, one ticked facet at most) in one pass; others below.
    // What the filter lets through (or the whole catalog) is the base a broad match is counted from.
    const filterBits = index.filterBits;
    const base: FacetBase | undefined =
      filter !== undefined && bits === undefined
        ? undefined
        : bits === undefined
          ? { live: index.size, passing: index.size, counts: (column) => column.totals }
          : { live: index.size, passing: filterBits.passing(bits), counts: (column) => filterBits.passCounts(bits, column) };
    const fused = filterAndCountFacets(index.facetScratch, columns, selections, pending, docs, scores, length, facetsOn, base);
    if (fused !== undefined) {
      facets = fused.results;
      length = fused.length;
      pending = undefined;
    } else {
      if (pending !== undefined) length = keepBits(pending, docs, scores, length);
      pending = undefined;
      const counted = countFacets(index.facetScratch, columns, selections, docs, length, facetsOn);
      facets = counted.results;
      if (selections.size > 0) {
        // Passing positions ascend, so moving each down to its rank never overwrites one still to move.
        const { passing } = counted;
        for (let n = 0; n < passing.length; n++) {
          const i = passing[n]!;
          docs[n] = docs[i]!;
          scores[n] = scores[i]!;
        }
        length = passing.length;
      }
    }
  }
  if (pending !== undefined) length = keepBits(pending, docs, scores, length);

  // The learned signal: after text relevance (and under the tiers below), before pins. A requested sort outranks it.
  const lifts = learningKey === undefined || request.sortBy.length > 0 ? undefined : learned!.lifts(request.tenantId, learningKey, config.learning, resetOf(config, learningKey));
  const learnedMoves = lifts === undefined ? 0 : applyLifts(index, lifts, docs, scores, length);
  // The shopper's own interests, on top: among comparably relevant items (a bounded share of the best score).
  const personalization = config.personalization;
  const personal = request.shopper !== undefined && request.shopper.events.length > 0 && personalization.enabled && !request.disabled.has('personalization') && request.sortBy.length === 0;
  const affinities = personal ? affinitiesOf(index, request.shopper!.events, affinityAttributes(config), config.learning.halfLifeDays, request.shopper!.now) : undefined;
  const personalMoves = affinities === undefined ? 0 : applyAffinities(index, affinities, personalization.impact, docs, scores, length);
  const moved = learnedMoves + personalMoves;

  const rule = rules.fired.some((f) => f.kind === 'rule') ? rules : undefined;
  // A browse request's default order yields to a learned one, and still breaks its ties.
  const sortBy = request.sortBy.length > 0 ? request.sortBy : normalised === '' && moved === 0 ? config.defaultSort : [];
  // Equal relevance falls back to the configured default order (popularity in the demo), which shoppers read as "better".
  const primary = sortBy.length > 0 ? index.rank(sortBy) : undefined;
  const fallback = config.defaultSort.length > 0 ? index.rank(config.defaultSort) : undefined;
  const tiers = rule === undefined ? undefined : tiersOf(index, rule, docs, length);
  const order: EntryOrder = (a, b) => {
    const x = docs[a]!;
    const y = docs[b]!;
    return (
      (tiers === undefined ? 0 : tiers[b]! - tiers[a]!) ||
      (primary === undefined ? 0 : primary[x]! - primary[y]!) ||
      scores[b]! - scores[a]! ||
      (fallback === undefined ? 0 : fallback[x]! - fallback[y]!) ||
      x - y
    );
  };
  const pinned = (rule?.pin ?? []).flatMap((id) => index.docOf(id) ?? []);
  const pinnedSet = new Set(pinned);
  // Only a pinned item that did not match needs the top score (it borrows it); finding it costs a pass.
  const top = pinned.length === 0 || length === 0 ? 0 : scores[firstInOrder(length, 1, order)[0]!]!;
  const scoreOf = new Map<number, number>();
  if (pinned.length > 0) for (let i = 0; i < length; i++) if (pinnedSet.has(docs[i]!)) scoreOf.set(docs[i]!, scores[i]!);
  const unmatchedPins = pinned.filter((doc) => !scoreOf.has(doc)).length;
  // Pinned items come first in the rule's order, even those the query did not match.
  const page = (k: number): { doc: number; score: number }[] => {
    const head = pinned.map((doc) => ({ doc, score: scoreOf.get(doc) ?? top }));
    const byScore = tiers === undefined && primary === undefined;
    const bySort = tiers === undefined && primary !== undefined;
    const rest = firstInOrder(length, k + pinned.length, order, undefined, byScore ? scores : undefined, byScore ? { docs, rank: fallback } : undefined, bySort ? { docs, rank: primary } : undefined)
      .filter((i) => !pinnedSet.has(docs[i]!))
      .map((i) => ({ doc: docs[i]!, score: scores[i]! }));
    return [...head, ...rest].slice(0, k);
  };

  const hits: SearchHit[] = [];
  const redirect = request.disabled.has('redirect') ? undefined : rules.redirect;
  if (redirect !== undefined) {
    hits.push({ id: redirect.id, score: 1, kind: 'redirect', context: '', redirect: { id: redirect.id, name: redirect.name, url: redirect.url } });
  }
  if (!request.disabled.has('item') && request.limit > 0) {
    for (const { doc, score } of page(request.offset + request.limit).slice(request.offset)) {
      const hit = hitOf(request.tenantId, version, index.docs[doc]!, score);
      hits.push(joined?.has(doc) === true ? { ...hit, learned: true } : hit);
    }
  }
  const count = length + unmatchedPins;
  return {
    items: hits,
    count,
    exact: true,
    facets,
    groups: request.groupBy === undefined ? [] : groupInOrder(request.tenantId, version, index, pinned.map((doc) => ({ doc, score: scoreOf.get(doc) ?? top })), { docs, scores, length, order, pinned: pinnedSet, leading: tiers === undefined && primary === undefined ? scores : undefined }, request.groupBy),
    ordered: orderedOf(request.ordered, count, page).map(({ doc, score }) => ({ doc: index.docs[doc]!, item: index.docs[doc]!.item, score, ...(joined?.has(doc) === true ? { joined: true as const } : {}) })),
    matched: matches.docs.length,
    spelling: run === undefined ? 'none' : spellingOf(matches, run.plan, run.relaxed),
    corrected: run?.plan.corrected,
    relaxed: run?.relaxed ?? false,
    highlight: run === undefined ? NO_HIGHLIGHT : highlightTermsOf(run.words, queryText),
    version,
    // What a click on this page teaches is credited by position only when the order was not a requested sort.
    learningKey: request.sortBy.length === 0 ? learningKey : undefined,
    learned: learnedMoves,
    joined: joined?.size ?? 0,
    personalized: personalMoves > 0,
  };
}

/** The matches `ordered` asks for, in order: every one (`true`), the first n, or none. */
function orderedOf(ordered: boolean | number | undefined, count: number, page: (k: number) => { doc: number; score: number }[]): { doc: number; score: number }[] {
  if (ordered === true) return page(count);
  if (typeof ordered === 'number') return page(Math.min(count, Math.max(0, Math.floor(ordered))));
  return [];
}

/** 1 boosted, -1 buried, 0 otherwise: a merchandising tier above relevance. */
function tiersOf(index: SearchIndex, rule: { boost: string[]; bury: string[] }, docs: Int32Array, length: number): Int8Array {
  const boost = new Set(rule.boost.flatMap((id) => index.docOf(id) ?? []));
  const bury = new Set(rule.bury.flatMap((id) => index.docOf(id) ?? []));
  const tiers = new Int8Array(length);
  for (let i = 0; i < length; i++) tiers[i] = boost.has(docs[i]!) ? 1 : bury.has(docs[i]!) ? -1 : 0;
  return tiers;
}
