/**
 * The search API (`POST /search`, `GET /search/{token}?encoded=`, `POST /search/autocomplete`).
 * Public: storefronts call it from the browser with only a search token.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { mountedPath, publicBaseUrl, type ApiModule, type ServerDeps } from '../api-module.js';
import type { SearchConfiguration, SearchTokenConfig } from '../../platform/config/schema.js';
import { jsonBody, parseJson } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { parseMask } from '../../platform/response-mask.js';
import { parseInput } from '../http/validate.js';
import { offensiveCheck } from '../../domains/search/query/offensive-terms.js';
import { normalizeQuery } from '../../domains/search/analytics/search-queries.js';
import { EVENTS_READ } from '../../domains/search/learning/shopper-affinities.js';
import type { SearchQuery } from '../../domains/search/search-service.js';
import type { AutocompleteResponse, AutocompleteSuggestion, SuggestResponse } from '@discovery-kit/protocol';
import { autocompleteSchema, searchSchema, suggestSchema } from './search-schemas.js';
import { readSearchInput, type SearchInput } from './search-input.js';
import { declaredVariables, localeOf, parseSearchContext } from './search-context.js';
import { languageOf } from '../../domains/catalog/localized.js';
import { answerMetadata, answerParts, facetsJson, groupsJson, itemsJson, MaskedTexts, type AnswerHead } from '../../domains/search/response/response-text.js';
import type { ThreadAnswer, ThreadSearch } from '../../domains/search/threads/search-thread-protocol.js';
import { DomainError } from '../../platform/domain-error.js';
import { searchShopperId } from '../../domains/experiments/assignment.js';

export { autocompleteSchema, searchSchema, suggestSchema } from './search-schemas.js';

/** Autocomplete checks at most this many never-searched candidates against the index per request. */
const MAX_PROBES = 50;

/** Category suggestions answered at most, after the first query suggestion. */
const CATEGORY_SUGGESTIONS = 3;

/** `language` when one of the token's configurations lists it in `locales`, else undefined. */
function servedLanguage(token: SearchTokenConfig, language: string | undefined): string | undefined {
  return language !== undefined && token.configurations.some((c) => c.locales.includes(language)) ? language : undefined;
}

/** The configuration named, else the first serving the request's language, else the token's default. */
function configurationOf(token: SearchTokenConfig, id: string | undefined, language?: string): SearchConfiguration {
  const serving = id === undefined && language !== undefined ? token.configurations.find((c) => c.locales.includes(language)) : undefined;
  if (serving !== undefined) return serving;
  const wanted = id ?? token.defaultConfigurationId ?? token.configurations[0]!.id;
  const found = token.configurations.find((c) => c.id === wanted);
  if (found === undefined) throw new HttpError(400, 'invalid_parameter', `No configuration ${wanted} exists for this search token.`, { field: 'configurationId' });
  return found;
}

/**
 * The facet selections with their configured ids: a 2.0 client names a facet by `attribute` too; the
 * id wins when both are given, and an attribute no facet reads is kept as an id (matching none, as an unknown id).
 */
function facetsOf(requested: readonly { id?: string; attribute?: string; values: string[] }[], configuration: SearchConfiguration): { id: string; values: string[] }[] {
  return requested.map(({ id, attribute, values }) => {
    if (id !== undefined && id !== '') return { id, values };
    return { id: configuration.facets.find((f) => f.attribute === attribute)?.id ?? attribute!, values };
  });
}

/** The product fields `options.highlight` asks to highlight: `true` means the title. */
function highlightFields(highlight: boolean | string[] | undefined): string[] {
  return highlight === true ? ['title'] : highlight === false || highlight === undefined ? [] : highlight;
}

/** The `encoded` query parameter of the GET forms: a URL-encoded JSON object of the request's parameters. */
function encodedParams(ctx: Context): Record<string, unknown> {
  const encoded = ctx.query.encoded;
  let params: unknown = {};
  if (typeof encoded === 'string' && encoded !== '') params = parseJson(encoded);
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new HttpError(400, 'invalid_parameter', 'encoded must be a URL-encoded JSON object.', { field: 'encoded' });
  }
  return params as Record<string, unknown>;
}

/** A known shopper's recent product activities (newest first), from the `context.session` id: a session id or our profile id. */
function shopperEvents(deps: ServerDeps, tenantId: string, shopperId: string | undefined): SearchQuery['shopper'] {
  if (shopperId === undefined) return undefined;
  const { activities } = deps.services;
  const profile = activities.findProfile(tenantId, { sessionId: shopperId }) ?? activities.findProfile(tenantId, { profileId: shopperId });
  if (profile === undefined) return undefined;
  const events = activities.history(tenantId, profile.id, { type: 'product' }, EVENTS_READ);
  return events.length === 0 ? undefined : { events, now: deps.clock.now() };
}

export function createSearchApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  const { limits } = deps.services;
  const { responseIds } = deps.services.activities;
  // POST bodies name their search token: counted once the body is read.
  const bodyToken = limits.byKey((ctx) => (ctx.request.body as { token?: unknown } | undefined)?.token);
  const { search, experiments } = deps.services;
  const maskedTexts = new MaskedTexts();

  /** `groupOptions`' groups of the query's matches (its own sort, filter and mask), as JSON text; `[]` without `groupBy`. */
  const groupsText = (request: ThreadSearch, configuration: SearchConfiguration, group: NonNullable<SearchInput['groupOptions']>, language: string | undefined): string => {
    if (group.groupBy === undefined) return '[]';
    const result = search.search({ ...request, configuration, offset: 0, limit: 0, sortBy: group.sortBy, facets: [], filter: group.filter, disabled: new Set(['facet', 'redirect']), groupBy: group.groupBy });
    const groups = result.groups.map((g) => ({ ...g, items: search.localized(request.tenantId, request.environmentId, g.items, language) }));
    return groupsJson(groups, parseMask(group.customResponseMask ?? ''), group.customResponseMask ?? '', maskedTexts);
  };

  const answer = async (ctx: Context, raw: unknown): Promise<void> => {
    const startedAt = performance.timeOrigin + performance.now();
    // The common shape is read without zod; anything else (every refusal among it) goes through the schema.
    const input = readSearchInput(raw) ?? parseInput(searchSchema, raw);
    const ref = deps.registry.searchToken(input.token);
    const context = parseSearchContext(input.context);
    // The `locale` variable, when a configuration of the token serves its language: that configuration,
    // and the items' texts in it (other languages change nothing, so most requests stay on the fast path).
    const language = servedLanguage(ref.token, languageOf(localeOf(context)));
    const asked = configurationOf(ref.token, input.configurationId, language);
    // A running experiment on this configuration serves the shopper's variant (docs/experiments.md).
    const touched = experiments.forSearch(ref.tenant.id, ref.environment.id, input.token, asked, searchShopperId(raw));
    const configuration = touched?.settings ?? asked;
    // `options` is the definition's deprecated name of `itemOptions`: sent both, `itemOptions` is the one read.
    const options = input.itemOptions ?? input.options;
    const variables = declaredVariables(context, configuration.contextVariables);
    const mask = parseMask(options.customResponseMask ?? '');
    const disabled = [...new Set([...options.disable, ...input.disable].map((d) => d.name))];
    const maskText = options.customResponseMask ?? '';
    const { token, ...rest } = raw as Record<string, unknown>;
    const head: AnswerHead = {
      id: await responseIds.issue(ref.tenant.id, 's'),
      url: `${publicBaseUrl(deps.config, ctx)}${mountedPath(deps.config.mounts.search, `/search/${encodeURIComponent(String(token))}`)}?encoded=${encodeURIComponent(JSON.stringify(rest))}`,
      defaultConfigurationId: ref.token.defaultConfigurationId ?? ref.token.configurations[0]!.id,
      startedAt,
      ...(touched === undefined ? {} : { experiment: touched.stamp }),
    };
    const request: ThreadSearch = {
      tenantId: ref.tenant.id,
      environmentId: ref.environment.id,
      token: input.token,
      configurationId: configuration.id,
      query: input.query,
      offset: options.offset,
      limit: options.limit,
      sortBy: options.sortBy,
      facets: facetsOf(options.facets, configuration),
      filter: options.filter,
      disabled,
      highlight: highlightFields(options.highlight),
      maskText,
      head,
      variables,
    };
    const { groupOptions } = input;
    if (groupOptions?.groupBy !== undefined) {
      const waiting = search.whenReady({ tenantId: ref.tenant.id, environmentId: ref.environment.id, configuration, sortBy: groupOptions.sortBy, filter: groupOptions.filter, groupBy: groupOptions.groupBy });
      if (waiting !== undefined) await waiting;
    }
    // A search thread in step with this thread's index answers it (search-threads.ts), its answer written
    // whole as UTF-8; else, or if the thread fails otherwise than refusing the request, this thread does.
    const threads = deps.services.searchThreads;
    const shopper = shopperEvents(deps, ref.tenant.id, searchShopperId(raw));
    // An answer with groups or in a language is written here: the thread's answer has no place for them.
    // Search threads know the stored configurations only: a variant's own settings are answered here too.
    // They hold no learned state nor histories: a search learning or the shopper's interests may reorder is answered here.
    const learnable = threads !== undefined && (shopper !== undefined || search.mayLearn({ ...request, configuration, disabled: new Set(disabled) }));
    const threaded = groupOptions === undefined && language === undefined && configuration === asked && !learnable ? threads?.answer(request) : undefined;
    const fromThread = threaded === undefined ? undefined : await threaded.catch((error: unknown) => (error instanceof DomainError ? Promise.reject(error) : undefined));
    let found: Pick<ThreadAnswer, 'matched' | 'spelling' | 'corrected' | 'relaxed'>;
    if (fromThread !== undefined) {
      found = fromThread;
      ctx.body = Buffer.from(fromThread.body, 0, fromThread.length);
      // The buffer goes back to the thread once the socket has taken all of it (not on a connection closed before).
      if (fromThread.pooled) ctx.res.once('finish', () => threads!.release(fromThread));
    } else {
      // A sort order or a column nobody asked for yet is built in slices while this request waits (search-service.ts).
      const waiting = search.whenReady({ ...request, configuration });
      if (waiting !== undefined) await waiting;
      const result = search.search({ ...request, configuration, disabled: new Set(disabled), shopper, aiSearch: options.aiSearch === true });
      found = result;
      if (result.learningKey !== undefined) {
        // What the shopper saw, so that a click on it is credited at its real position (learning/search-ledger.ts).
        const items = result.items.flatMap((hit) => (hit.kind === 'redirect' ? [] : [hit.id]));
        search.learning?.ledger.record(head.id, { tenantId: ref.tenant.id, key: result.learningKey, first: request.offset + 1, items });
      }
      // Written as text so each product view's JSON (masked: per mask) and a cached answer's facets are
      // made once, not per response (the same bytes `JSON.stringify` of the object would give).
      const items = search.localized(ref.tenant.id, ref.environment.id, result.items, language);
      const itemsText = itemsJson(items, request.highlight, result.highlight, mask, maskText, maskedTexts);
      const parts = answerParts(itemsText, answerMetadata(result, request, head), facetsJson(result.facets));
      if (groupOptions !== undefined) parts.splice(parts.length - 1, 0, ',"groups":', groupsText(request, configuration, groupOptions, language));
      ctx.body = parts.join('');
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json';
    touched?.expose(head.id);
    if (input.query.trim() !== '') {
      const outcome = { tenantId: ref.tenant.id, token: input.token, id: head.id, query: normalizeQuery(input.query), count: found.matched, corrected: found.corrected, relaxed: found.relaxed };
      // A search made while the shopper types counts only if they act on its results (docs/search.md, "As-you-type searches").
      if (input.options.asYouType === true) deps.services.searchAnalytics.recordTypingSearch(outcome);
      else {
        deps.services.queryStatistics.recordSearch(ref.tenant.id, input.query, found.matched, found.spelling);
        deps.services.searchAnalytics.recordSearch(outcome);
      }
    }
  };

  router.post('/search', limits.byAddress, jsonBody(), bodyToken, (ctx) => answer(ctx, ctx.request.body));

  const suggest = async (ctx: Context, raw: unknown): Promise<void> => {
    const started = performance.now();
    const input = parseInput(suggestSchema, raw);
    const ref = deps.registry.searchToken(input.token);
    const asked = configurationOf(ref.token, input.configurationId);
    const touched = experiments.forSearch(ref.tenant.id, ref.environment.id, input.token, asked, searchShopperId(raw));
    const configuration = touched?.settings ?? asked;
    const mask = parseMask(input.options.customResponseMask ?? '');
    const { groupBy } = input.options;
    const variables = declaredVariables(parseSearchContext(input.context), configuration.contextVariables);
    const waiting = search.whenReady({ tenantId: ref.tenant.id, environmentId: ref.environment.id, configuration, sortBy: input.options.sortBy, filter: input.options.filter, groupBy });
    if (waiting !== undefined) await waiting;
    // Answered here, not by search threads: a suggest answer is a hundred product views, and handing
    // those over doubled its p99 on the bench machine for a tenth more throughput (docs/performance.md).
    const result = search.search({
      tenantId: ref.tenant.id,
      environmentId: ref.environment.id,
      configuration,
      query: input.query,
      offset: 0,
      limit: 0,
      sortBy: input.options.sortBy,
      facets: [],
      filter: input.options.filter,
      disabled: new Set(['facet', 'redirect']),
      groupBy,
      variables,
    });
    // As search's answer: written as text with each product view's JSON (masked: per mask) made once (a
    // suggest answer holds up to `size` items per group, often a hundred views).
    const groupsText = groupsJson(result.groups, mask, input.options.customResponseMask ?? '', maskedTexts);
    const { token, ...rest } = raw as Record<string, unknown>;
    ctx.set('Cache-Control', 'no-store');
    const metadata: SuggestResponse['metadata'] = {
      time: Math.round((performance.now() - started) * 1000) / 1000,
      token: input.token,
      url: `${publicBaseUrl(deps.config, ctx)}${mountedPath(deps.config.mounts.search, '/search/suggest')}?encoded=${encodeURIComponent(JSON.stringify({ token, ...rest }))}`,
      id: await responseIds.issue(ref.tenant.id, 's'),
      configurationId: configuration.id,
      ...(touched === undefined ? {} : { experiment: touched.stamp }),
    };
    touched?.expose(metadata.id);
    ctx.type = 'application/json';
    ctx.body = `{"groups":${groupsText},"metadata":${JSON.stringify(metadata)}}`;
  };

  router.post('/search/suggest', limits.byAddress, jsonBody(), bodyToken, (ctx) => suggest(ctx, ctx.request.body));

  // What suggest's `metadata.url` names: the same request, every parameter (token included) in `encoded`.
  // Registered before `/search/:token`, which would otherwise read "suggest" as a search token.
  router.get('/search/suggest', limits.byAddress, (ctx) => suggest(ctx, encodedParams(ctx)));

  router.post('/search/autocomplete', limits.byAddress, jsonBody(), bodyToken, async (ctx) => {
    const started = performance.now();
    const input = parseInput(autocompleteSchema, ctx.request.body);
    const ref = deps.registry.searchToken(input.token);
    const asked = configurationOf(ref.token, input.configurationId);
    const touched = experiments.forSearch(ref.tenant.id, ref.environment.id, input.token, asked, searchShopperId(ctx.request.body));
    const configuration = touched?.settings ?? asked;
    const offensive = offensiveCheck(configuration.offensiveTerms);
    const { filter } = input.options;
    const disabled = new Set(input.disable.map((d) => d.name));
    const scope = { tenantId: ref.tenant.id, environmentId: ref.environment.id, configuration };
    // Counts and the filter read the index: its default order (the tie-break) and the filter's columns first.
    const waiting = search.whenReady({ ...scope, sortBy: [], filter });
    if (waiting !== undefined) await waiting;
    // How many items a suggestion finds (under `options.filter`): its `count`, and none means it is not offered.
    const countOf = (query: string, facetsToo = false) =>
      search.search({ ...scope, query, offset: 0, limit: 0, sortBy: [], facets: [], filter, disabled: new Set(facetsToo ? ['item', 'redirect'] : ['item', 'redirect', 'facet']) }).count;
    let probes = 0;
    const suggestions = deps.services.queryStatistics.suggestQueries(ref.tenant.id, input.query, {
      sinceDays: ref.token.autocompleteWindowDays,
      limit: input.options.numberOfSuggestions,
      minShoppers: ref.token.autocompleteMinShoppers,
      accept: (candidate) => {
        if (offensive(candidate.query)) return false;
        // A query only seen as a page view since the last restart: ask the live index (a bounded number of times).
        const spelling = candidate.spelling ?? (probes++ < MAX_PROBES ? search.spelling(ref.tenant.id, ref.environment.id, configuration, candidate.query) : 'none');
        // "hanging hart" found items only through typo correction: its correctly spelt form is the one to offer.
        return spelling === 'typed' && (filter === undefined || countOf(candidate.query) > 0);
      },
    });
    // Suggestions start with the typed text as normalised (case, spaces): that part is what matched.
    const typed = normalizeQuery(input.query).length;
    // `disable: [{name: "item"}]` leaves the counts out (they are a search per suggestion).
    const counted = (query: string) => (disabled.has('item') ? {} : { count: countOf(query) });
    const answered: AutocompleteSuggestion[] = suggestions.map((s) => ({ suggestion: s.query, ...(typed > 0 ? { highlights: [[0, Math.min(typed, s.query.length)] as [number, number]] } : {}), ...counted(s.query) }));
    if (input.options.categories && !disabled.has('facet')) {
      const head = suggestions[0]?.query ?? normalizeQuery(input.query);
      const categories = head === '' ? [] : search.categorySuggestions({ ...scope, query: head, limit: CATEGORY_SUGGESTIONS, filter });
      answered.splice(Math.min(1, answered.length), 0, ...categories.map((c) => ({ suggestion: head, highlights: [[0, Math.min(typed, head.length)] as [number, number]], ...(disabled.has('item') ? {} : { count: c.count }), category: c })));
    }
    ctx.set('Cache-Control', 'no-store');
    const body: AutocompleteResponse = {
      suggestions: answered,
      metadata: {
        count: answered.length,
        time: Math.round((performance.now() - started) * 1000) / 1000,
        token: input.token,
        id: await responseIds.issue(ref.tenant.id, 's'),
        configurationId: configuration.id,
        defaultConfigurationId: ref.token.defaultConfigurationId ?? ref.token.configurations[0]!.id,
        ...(touched === undefined ? {} : { experiment: touched.stamp }),
      },
    };
    touched?.expose(body.metadata.id);
    ctx.body = body;
  });

  router.get('/search/:token', limits.byAddress, limits.byKey((ctx) => ctx.params.token), (ctx) => answer(ctx, { ...encodedParams(ctx), token: ctx.params.token }));

  return { name: 'search', mount: 'search', router, public: true };
}
