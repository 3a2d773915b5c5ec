/**
 * Search over the active catalog of each environment. An index is built off the request path when a
 * catalog is promoted (the promotion awaits it, so the swap happens only once it is complete), at
 * server start for catalogs already active, and again after writes to the active catalog; queries
 * keep reading the previous index until its replacement is whole.
 */
import type { CatalogService } from '../catalog/catalog-service.js';
import { toProductView } from '../catalog/product-view.js';
import type { StoredItem } from '../catalog/types.js';
import type { ConfigRegistry } from '../config/registry.js';
import type { FacetConfig, SearchConfiguration } from '../config/schema.js';
import type { Logger } from '../logger.js';
import { compileFilter, parseFilter, type FilterNode, type FilterValue } from './filter.js';
import { attributeValues, fold, SearchIndex, words } from './search-index.js';

export interface SortKey {
  attribute: string;
  order: 'asc' | 'desc';
}

export interface SearchQuery {
  tenantId: string;
  environmentId: string;
  configuration: SearchConfiguration;
  query: string;
  offset: number;
  limit: number;
  sortBy: SortKey[];
  facets: { id: string; values: string[] }[];
  filter: string | undefined;
  disabled: Set<string>;
}

export interface SearchHit {
  id: string;
  score: number;
  kind: string;
  context: string;
  product?: Record<string, unknown>;
  redirect?: { id: string; name: string; url: string };
}

export interface FacetResult {
  id: string;
  title: string;
  attribute: string;
  count: number;
  values: { value: string; count: number; selected: boolean }[];
}

export interface SearchResult {
  items: SearchHit[];
  count: number;
  /** False when a query matched so many items that only the first ones were scored (MAX_MATCHES). */
  exact: boolean;
  facets: FacetResult[];
  /** Every matching item in result order, for suggest's grouping. */
  all: { item: StoredItem; score: number }[];
  version: number | undefined;
}

interface ActiveIndex {
  version: number;
  index: SearchIndex;
}

/** Score multipliers per way a word matched: a typed word beats its completion, which beats a typo. */
const EXACT = 1;
const PREFIX = 0.7;
const TYPO = 0.5;
const SYNONYM = 0.9;
/**
 * Scoring stops after this many matches: a query whose every word is very common ("the") would
 * otherwise score, facet and sort most of the catalog. Its count is then a lower bound (`exactCount: false`).
 */
const MAX_MATCHES = 2_000;

export class SearchService {
  private readonly indexes = new Map<string, ActiveIndex>();
  private readonly rebuilds = new Map<string, Promise<void>>();
  private readonly pending = new Set<string>();

  constructor(
    private readonly deps: { catalog: CatalogService; registry: ConfigRegistry; logger: Logger },
  ) {
    deps.catalog.onActivate(async (tenantId, environmentId, version, items) => {
      this.build(tenantId, environmentId, version, items);
    });
    deps.catalog.onItemsChanged((change) => {
      const { scope } = change;
      if (scope.api !== 'catalog') return;
      const current = this.indexes.get(key(scope.tenantId, scope.environmentId));
      if (current === undefined || current.version !== scope.version) return;
      this.scheduleRebuild(scope.tenantId, scope.environmentId, scope.version);
    });
  }

  /** Builds the indexes of catalogs that were already active when the server started. */
  async start(): Promise<void> {
    for (const tenant of this.deps.registry.tenantList) {
      for (const environment of tenant.environments) {
        const active = await this.deps.catalog.catalogs.active(tenant.id, environment.id);
        if (active === undefined) continue;
        const items = await this.deps.catalog.allItems(tenant.id, environment.id, active.version);
        this.build(tenant.id, environment.id, active.version, items);
      }
    }
  }

  /** Waits for rebuilds in flight, so tests read an index that includes their writes. */
  async settled(): Promise<void> {
    while (this.rebuilds.size > 0) await Promise.all(this.rebuilds.values());
  }

  private build(tenantId: string, environmentId: string, version: number, items: readonly StoredItem[]): void {
    const started = performance.now();
    const index = new SearchIndex(items);
    this.indexes.set(key(tenantId, environmentId), { version, index });
    this.deps.logger.info({ tenantId, environmentId, version, documents: index.docs.length, ms: Math.round(performance.now() - started) }, 'search index built');
  }

  private scheduleRebuild(tenantId: string, environmentId: string, version: number): void {
    const k = key(tenantId, environmentId);
    if (this.pending.has(k)) return;
    this.pending.add(k);
    // Coalesces a burst of item writes into one rebuild on the next turn.
    const run = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      this.pending.delete(k);
      const items = await this.deps.catalog.allItems(tenantId, environmentId, version);
      const current = this.indexes.get(k);
      if (current?.version === version) this.build(tenantId, environmentId, version, items);
    })()
      .catch((error: unknown) => this.deps.logger.error({ err: error, tenantId, environmentId }, 'search index rebuild failed'))
      .finally(() => {
        if (this.rebuilds.get(k) === run) this.rebuilds.delete(k);
      });
    this.rebuilds.set(k, run);
  }

  /**
   * Suggest's groups: the matches split by one attribute's values (only `values` when given, in that
   * order; otherwise the most frequent first), each with its full count and its first `size` items.
   */
  group(tenantId: string, result: SearchResult, groupBy: { attribute: string; size: number; values: string[] }): { value: string; count: number; items: SearchHit[] }[] {
    const groups = new Map<string, { value: string; count: number; items: SearchHit[] }>();
    const wanted = new Map(groupBy.values.map((v) => [fold(v), v]));
    for (const value of groupBy.values) groups.set(fold(value), { value, count: 0, items: [] });
    for (const { item, score } of result.all) {
      for (const raw of new Set(attributeValues(item, groupBy.attribute).map(String))) {
        const k = fold(raw);
        if (wanted.size > 0 && !wanted.has(k)) continue;
        let group = groups.get(k);
        if (group === undefined) groups.set(k, (group = { value: raw, count: 0, items: [] }));
        group.count++;
        if (group.items.length < groupBy.size) {
          group.items.push({ id: item.id, score: round(score), kind: item.kind, context: item.context, product: toProductView(item, { tenantId, version: result.version ?? 0 }) });
        }
      }
    }
    const out = [...groups.values()];
    return wanted.size > 0 ? out : out.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  }

  /**
   * Items whose title and text share the most distinctive words with `itemId`'s title (each shared word
   * weighs its inverse document frequency), best first, the item itself excluded. Recommendations'
   * `similar` strategy reads it; an item outside the active index, or an environment without one, gives [].
   */
  similarText(tenantId: string, environmentId: string, itemId: string, limit: number): { id: string; score: number }[] {
    const active = this.indexes.get(key(tenantId, environmentId));
    if (active === undefined) return [];
    const { index } = active;
    const self = index.docOf(itemId);
    if (self === undefined) return [];
    const total = index.docs.length;
    const scores = new Map<number, number>();
    for (const word of new Set(index.docs[self]!.title.split(' '))) {
      const posting = index.posting(word);
      // A word on a third of the catalog says nothing about likeness.
      if (posting === undefined || posting.size > total / 3) continue;
      const idf = Math.log(1 + total / posting.size);
      for (const doc of posting.keys()) if (doc !== self) scores.set(doc, (scores.get(doc) ?? 0) + idf);
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([doc, score]) => ({ id: index.docs[doc]!.item.id, score: round(score) }));
  }

  search(request: SearchQuery): SearchResult {
    const active = this.indexes.get(key(request.tenantId, request.environmentId));
    if (active === undefined) return { items: [], count: 0, exact: true, facets: [], all: [], version: undefined };
    const { index } = active;
    const config = request.configuration;
    const filter: FilterNode | undefined = request.filter === undefined || request.filter.trim() === '' ? undefined : parseFilter(request.filter);

    const normalised = words(request.query).join(' ');
    const matched = normalised === '' ? { scored: allDocs(index), exact: true } : matchDocs(index, config, normalised);
    let scored = matched.scored;
    if (filter !== undefined) {
      const keep = compileFilter(filter, (attribute) => index.values(attribute));
      scored = scored.filter(({ doc }) => keep(doc));
    }

    const facetsOn = !request.disabled.has('facet');
    // Shoppers' selections come back as typed in URLs, so case and accents do not decide a match.
    const selections = new Map(request.facets.filter((f) => f.values.length > 0).map((f) => [f.id, new Set(f.values.map(fold))]));
    const facetConfigs = config.facets;
    const columns = new Map(facetConfigs.map((facet) => [facet.id, facetColumn(index, facet)]));
    const selectedFacets = facetConfigs.filter((facet) => selections.has(facet.id));
    const passes = (doc: number, except: string | undefined): boolean => {
      for (const facet of selectedFacets) {
        if (facet.id === except) continue;
        const selected = selections.get(facet.id)!;
        if (!columns.get(facet.id)![doc]!.folded.some((v) => selected.has(v))) return false;
      }
      return true;
    };
    const facets = facetsOn
      ? facetConfigs.map((facet) => {
          const column = columns.get(facet.id)!;
          const docs = selectedFacets.length === 0 || (selectedFacets.length === 1 && selectedFacets[0] === facet) ? scored : scored.filter(({ doc }) => passes(doc, facet.id));
          return countFacet(facet, docs.map(({ doc }) => column[doc]!.values), selections.get(facet.id));
        })
      : [];
    if (selectedFacets.length > 0) scored = scored.filter(({ doc }) => passes(doc, undefined));

    const sortBy = request.sortBy.length > 0 ? request.sortBy : normalised === '' ? config.defaultSort : [];
    scored = applyRules(index, config, normalised, scored);
    // Equal relevance falls back to the configured default order (popularity in the demo), which shoppers read as "better".
    const primary = sortBy.length > 0 ? index.rank(sortBy) : undefined;
    const fallback = config.defaultSort.length > 0 ? index.rank(config.defaultSort) : undefined;
    scored.sort((a, b) => (b.tier ?? 0) - (a.tier ?? 0) || (primary === undefined ? 0 : primary[a.doc]! - primary[b.doc]!) || b.score - a.score || (fallback === undefined ? 0 : fallback[a.doc]! - fallback[b.doc]!) || a.doc - b.doc);
    scored = pinFirst(index, config, normalised, scored);

    const hits: SearchHit[] = [];
    const redirect = request.disabled.has('redirect') ? undefined : config.redirects.find((r) => r.queries.some((q) => words(q).join(' ') === normalised));
    if (redirect !== undefined && normalised !== '') {
      hits.push({ id: redirect.id, score: 1, kind: 'redirect', context: '', redirect: { id: redirect.id, name: redirect.name, url: redirect.url } });
    }
    if (!request.disabled.has('item')) {
      for (const { doc, score } of scored.slice(request.offset, request.offset + request.limit)) {
        const item = index.docs[doc]!.item;
        hits.push({
          id: item.id,
          score: round(score),
          kind: item.kind,
          context: item.context,
          product: toProductView(item, { tenantId: request.tenantId, version: active.version }),
        });
      }
    }
    return { items: hits, count: scored.length, exact: matched.exact, facets, all: scored.map(({ doc, score }) => ({ item: index.docs[doc]!.item, score })), version: active.version };
  }
}

function key(tenantId: string, environmentId: string): string {
  return `${tenantId}\u0000${environmentId}`;
}

interface Scored {
  doc: number;
  score: number;
  /** 0 normal, 1 boosted, -1 buried: a merchandising tier above relevance. */
  tier?: number;
}

function allDocs(index: SearchIndex): Scored[] {
  return index.docs.map((_, doc) => ({ doc, score: 0 }));
}

/** For one query word: the postings it may match, each with its match-kind multiplier. */
function alternatives(index: SearchIndex, config: SearchConfiguration, word: string, last: boolean): { posting: Map<number, number>; factor: number }[] {
  const out: { posting: Map<number, number>; factor: number }[] = [];
  const add = (term: string, factor: number): void => {
    const posting = index.posting(term);
    if (posting !== undefined) out.push({ posting, factor });
  };
  add(word, EXACT);
  for (const group of config.synonyms) {
    const folded = group.map((s) => words(s).join(' '));
    if (folded.includes(word)) for (const other of folded) if (other !== word && !other.includes(' ')) add(other, SYNONYM);
  }
  // Every word may be a prefix ("blu sh" is blue shirt), the last one most likely still being typed.
  const prefix = last ? PREFIX : PREFIX * 0.8;
  for (const term of index.prefixed(word)) add(term, prefix * (word.length / term.length + 1) / 2);
  for (const term of index.typos(word)) add(term, TYPO);
  return out;
}

function matchDocs(index: SearchIndex, config: SearchConfiguration, normalised: string): { scored: Scored[]; exact: boolean } {
  const weights = config.fields.flatMap((f) => {
    const bit = index.fields.get(f.attribute);
    return bit === undefined ? [] : [{ bit, weight: f.weight }];
  });
  const mask = weights.reduce((m, w) => m | w.bit, 0);
  const fieldScore = (bits: number): number => {
    let best = 0;
    for (const { bit, weight } of weights) if (bits & bit && weight > best) best = weight;
    return best;
  };
  const queryWords = normalised.split(' ');
  const unsorted = queryWords.map((word, i) => alternatives(index, config, word, i === queryWords.length - 1));
  if (unsorted.some((alts) => alts.length === 0)) return { scored: [], exact: true };
  // Enumerate the rarest word's documents and probe the others, rarest first so a miss is found early:
  // a very common word costs lookups, not a scan.
  const size = (alts: { posting: Map<number, number> }[]): number => alts.reduce((n, a) => n + a.posting.size, 0);
  const perWord = unsorted.map((alts) => ({ alts, size: size(alts) })).sort((a, b) => a.size - b.size).map((w) => w.alts);
  const driver = 0;
  const { marks, generation } = index.visitMarks();

  const out: Scored[] = [];
  let exact = true;
  outer: for (const { posting: driving } of perWord[driver]!) {
    for (const doc of driving.keys()) {
      if (marks[doc] === generation) continue;
      marks[doc] = generation;
      if (out.length >= MAX_MATCHES) {
        exact = false;
        break outer;
      }
      let total = 0;
      let ok = true;
      for (const alts of perWord) {
        let best = 0;
        for (const { posting, factor } of alts) {
          const bits = posting.get(doc);
          if (bits === undefined || (bits & mask) === 0) continue;
          const s = factor * fieldScore(bits);
          if (s > best) best = s;
        }
        if (best === 0) {
          ok = false;
          break;
        }
        total += best;
      }
      if (!ok) continue;
      const title = index.docs[doc]!.title;
      // A shopper typing a product's name expects that product first, then titles holding the whole phrase.
      if (title === normalised) total *= 2;
      else if (` ${title} `.includes(` ${normalised} `)) total *= 1.5;
      out.push({ doc, score: total });
    }
  }
  return { scored: out, exact };
}

function applyRules(index: SearchIndex, config: SearchConfiguration, normalised: string, scored: Scored[]): Scored[] {
  const rule = config.rules.find((r) => words(r.query).join(' ') === normalised);
  if (rule === undefined) return scored;
  const boost = new Set(rule.boost.flatMap((id) => index.docOf(id) ?? []));
  const bury = new Set(rule.bury.flatMap((id) => index.docOf(id) ?? []));
  return scored.map((s) => ({ ...s, tier: boost.has(s.doc) ? 1 : bury.has(s.doc) ? -1 : 0 }));
}

function pinFirst(index: SearchIndex, config: SearchConfiguration, normalised: string, scored: Scored[]): Scored[] {
  const rule = config.rules.find((r) => words(r.query).join(' ') === normalised);
  if (rule === undefined || rule.pin.length === 0) return scored;
  const pinned = rule.pin.flatMap((id) => index.docOf(id) ?? []);
  const pinnedSet = new Set(pinned);
  const top = scored[0]?.score ?? 0;
  const byDoc = new Map(scored.map((s) => [s.doc, s]));
  return [...pinned.map((doc) => byDoc.get(doc) ?? { doc, score: top }), ...scored.filter((s) => !pinnedSet.has(s.doc))];
}

const facetColumns = new WeakMap<SearchIndex, Map<FacetConfig, { values: string[]; folded: string[] }[]>>();

/** Each document's values for one facet, computed once per index and facet definition. */
function facetColumn(index: SearchIndex, facet: FacetConfig): { values: string[]; folded: string[] }[] {
  let byFacet = facetColumns.get(index);
  if (byFacet === undefined) facetColumns.set(index, (byFacet = new Map()));
  let column = byFacet.get(facet);
  if (column === undefined) {
    column = index.values(facet.attribute).map((raw) => {
      const values = facetValues(facet, raw);
      return { values, folded: values.map(fold) };
    });
    byFacet.set(facet, column);
  }
  return column;
}

function facetValues(facet: FacetConfig, values: readonly FilterValue[]): string[] {
  if (facet.type === 'value') return values.map(String);
  const out: string[] = [];
  for (const value of values) {
    if (typeof value !== 'number') continue;
    for (const range of facet.ranges ?? []) {
      if ((range.from === undefined || value >= range.from) && (range.to === undefined || value < range.to)) out.push(range.label);
    }
  }
  return out;
}

function countFacet(facet: FacetConfig, perItem: string[][], selected: Set<string> | undefined): FacetResult {
  const counts = new Map<string, number>();
  for (const values of perItem) {
    for (let i = 0; i < values.length; i++) {
      // A value listed twice in one item counts once.
      if (values.indexOf(values[i]!) === i) counts.set(values[i]!, (counts.get(values[i]!) ?? 0) + 1);
    }
  }
  let values = [...counts].map(([value, count]) => ({ value, count, selected: selected?.has(fold(value)) ?? false }));
  if (facet.type === 'range') {
    const order = (facet.ranges ?? []).map((r) => r.label);
    values.sort((a, b) => order.indexOf(a.value) - order.indexOf(b.value));
  } else {
    values.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
    // A selected value stays listed even when it falls outside the top `size`, so it can be unticked.
    values = values.filter((v, i) => i < facet.size || v.selected);
  }
  for (const value of selected ?? []) if (!values.some((v) => fold(v.value) === value)) values.push({ value, count: 0, selected: true });
  return { id: facet.id, title: facet.title, attribute: facet.attribute, count: perItem.length, values };
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
