/** The configuration file's schema: tenants, environments and everything a merchandiser configures. */
import { z } from 'zod';
import { LANGUAGES } from './languages.js';
import { DEFAULT_HTTP_LIMITS } from '../http-limits.js';
import { declaredVariablesSchema, filterSyntaxIssue, whenIssues, whenSchema } from './context-conditions.js';

/** Ids appear in URLs and file names: keep them to a safe alphabet. */
export const identifier = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'use 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit');

export const STRATEGIES = [
  'popular',
  'top-sellers',
  'trending',
  'similar',
  'also-viewed',
  'bought-together',
  'personalized',
  'recently-viewed',
  'buy-again',
] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export const DEFAULT_VERB_WEIGHTS: Record<string, number> = {
  view: 1,
  click: 1,
  'click-on-reco': 2,
  like: 3,
  dislike: -3,
  'add-to-cart': 4,
  'remove-from-cart': -2,
  buy: 8,
  purchase: 8,
};

const serviceAccountSchema = z
  .strictObject({
    clientId: identifier,
    /** `tenant`: the current APIs' realm (the tenant id); `master`: the older private APIs. */
    realm: z.enum(['tenant', 'master']).default('tenant'),
    description: z.string().max(500).optional(),
    /** PEM (SPKI public key or X.509 certificate), inline. */
    publicKey: z.string().optional(),
    /** Path to a PEM file, relative to the configuration file. */
    publicKeyFile: z.string().optional(),
    /** Password method: `sha256:<hex>` of the client secret. Never the secret itself. */
    clientSecretHash: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/, 'write the hash as "sha256:" followed by 64 lowercase hex digits')
      .optional(),
    assertionMaxLifetimeSeconds: z.number().int().min(1).max(3600).default(60),
    accessTokenLifetimeSeconds: z.number().int().min(10).max(86400).default(300),
    /** What this account may do with the admin API (docs/admin-api.md): nothing, read, or read and edit. */
    adminRole: z.enum(['none', 'read', 'edit']).default('none'),
  })
  .superRefine((account, ctx) => {
    const keyed = account.publicKey !== undefined || account.publicKeyFile !== undefined;
    const secret = account.clientSecretHash !== undefined;
    if (keyed === secret) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one authentication method: publicKey/publicKeyFile, or clientSecretHash', path: [] });
    }
    if (account.publicKey !== undefined && account.publicKeyFile !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'give publicKey or publicKeyFile, not both', path: ['publicKeyFile'] });
    }
  });

const facetSchema = z.strictObject({
  id: identifier,
  title: z.string().min(1).max(200),
  attribute: z.string().min(1).max(200),
  /** `value`: one bucket per distinct value; `range`: the buckets given in `ranges`. */
  type: z.enum(['value', 'range']).default('value'),
  ranges: z
    .array(z.strictObject({ label: z.string().min(1), from: z.number().optional(), to: z.number().optional() }))
    .optional(),
  /** How many values to return, most frequent first. */
  size: z.number().int().min(1).max(1000).default(20),
});

const redirectSchema = z.strictObject({
  id: identifier,
  name: z.string().min(1).max(200),
  url: z.string().url(),
  /** Queries (normalised: case, accents and spaces) that trigger the redirect; none: any query, when `when` holds. */
  queries: z.array(z.string().min(1)).default([]),
  /** Context variables that must hold for the redirect (context-conditions.ts). */
  when: whenSchema.optional(),
}).refine((redirect) => redirect.queries.length > 0 || redirect.when !== undefined, { message: 'a redirect needs queries, a when condition or both', path: ['queries'] });

const merchandisingRuleSchema = z.strictObject({
  /** The query (normalised) the rule applies to; none: every query, when `when` holds. */
  query: z.string().min(1).optional(),
  /** Context variables that must hold for the rule (context-conditions.ts), e.g. `{"store": "paris"}`. */
  when: whenSchema.optional(),
  pin: z.array(z.string()).default([]),
  boost: z.array(z.string()).default([]),
  bury: z.array(z.string()).default([]),
  /** Keeps only the items this filter (the search filter language) lets through, on top of the request's. */
  filter: z.string().min(1).max(10_000).optional(),
}).refine((rule) => rule.query !== undefined || rule.when !== undefined, { message: 'a rule needs a query, a when condition or both', path: ['query'] });

/**
 * Search that learns from what shoppers do after a search (domains/search/learning/, docs/search.md):
 * per configuration, so that an experiment can compare it on and off.
 */
const searchLearningSchema = z.strictObject({
  /** Reorder each query's matches by the clicks, add-to-carts and purchases that followed it. */
  enabled: z.boolean().default(true),
  /** What one shopper's action on an item of a query is worth; purchases are the most reliable label. */
  weights: z
    .strictObject({ click: z.number().min(0).max(100).default(1), addToCart: z.number().min(0).max(100).default(2), purchase: z.number().min(0).max(100).default(4) })
    .default({ click: 1, addToCart: 2, purchase: 4 }),
  /** Days after which a vote counts half. */
  halfLifeDays: z.number().min(1).max(365).default(30),
  /** Distinct shoppers an item needs in a query before it moves at all. */
  minShoppers: z.number().int().min(2).max(1_000).default(3),
  /** Shrinkage: an item's lift is scaled by shoppers / (shoppers + priorShoppers). */
  priorShoppers: z.number().min(0).max(1_000).default(5),
  /** How far learning may move an item, 0 (not at all) to 100 (above every text match). */
  impact: z.number().min(0).max(100).default(100),
  /**
   * Queries that lead to products: a product shoppers went on to cart or buy after searching a query
   * that does not match it joins that query's results once `minShoppers` did so (docs/search.md).
   */
  leads: z.boolean().default(true),
  /** Learned keys a merchandiser reset, and when: votes received before are not used (the admin API adds them). */
  resets: z
    .array(z.strictObject({ key: z.string().min(1).max(200), at: z.number().int().min(0) }))
    .max(1_000)
    .default([]),
});

/** The shopper's own interests (learning/shopper-affinities.ts): facet values they viewed, carted and bought lift matching items. */
const searchPersonalizationSchema = z.strictObject({
  /** Lift a known shopper's affinities among comparably relevant items (the request's `context.session` names them). */
  enabled: z.boolean().default(true),
  /** Attributes whose values make an affinity (category, brand, colour); empty: the configuration's value facets. */
  attributes: z.array(z.string().min(1).max(200)).max(10).default([]),
  /** 0 (none) to 100: an item sharing every affinity gains up to a quarter of the best text score at 100. */
  impact: z.number().min(0).max(100).default(50),
});

export const searchConfigurationSchema = z.strictObject({
  id: identifier,
  /** Text attributes searched, with their relative weights. */
  fields: z
    .array(z.strictObject({ attribute: z.string().min(1), weight: z.number().positive().default(1) }))
    .min(1)
    .default([
      { attribute: 'title', weight: 3 },
      { attribute: 'brand', weight: 2 },
      { attribute: 'categories', weight: 1.5 },
      { attribute: 'description', weight: 1 },
    ]),
  facets: z.array(facetSchema).default([]),
  redirects: z.array(redirectSchema).default([]),
  /** Groups of words that mean the same thing in a query. */
  synonyms: z.array(z.array(z.string().min(1)).min(2)).default([]),
  rules: z.array(merchandisingRuleSchema).default([]),
  /** Order of results for an empty query. */
  defaultSort: z.array(z.strictObject({ attribute: z.string().min(1), order: z.enum(['asc', 'desc']).default('asc') })).default([]),
  /** Words or phrases autocomplete never suggests, on top of its built-in list of offensive words. */
  offensiveTerms: z.array(z.string().min(1).max(200)).max(10_000).default([]),
  /** How words fold into their other forms (mugs → mug): see domains/search/index/language.ts and docs/search.md. */
  language: z.enum(LANGUAGES).default('english'),
  /** Words never folded with their other forms ("glasses" stays apart from "glass"). */
  keepApart: z.array(z.string().min(1).max(100)).max(1_000).default([]),
  /**
   * The languages (ISO 639-1) this configuration serves: a search whose `locale` context variable is
   * one of them, naming no configuration, is answered by the first such configuration.
   */
  locales: z.array(z.string().regex(/^[a-z]{2}$/, 'use a two-letter ISO 639-1 code such as fr')).max(50).default([]),
  /** Context variables (`context.variables` / `context.contextVariables`) the rules' `when` may name, with their types; others sent are ignored. */
  contextVariables: declaredVariablesSchema,
  learning: searchLearningSchema.default(searchLearningSchema.parse({})),
  personalization: searchPersonalizationSchema.default(searchPersonalizationSchema.parse({})),
}).superRefine((config, ctx) => {
  const check = (when: Parameters<typeof whenIssues>[1] | undefined, path: (string | number)[]) => {
    if (when === undefined) return;
    for (const issue of whenIssues(config.contextVariables, when)) ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, 'when', issue.variable] });
  };
  config.rules.forEach((rule, i) => {
    check(rule.when, ['rules', i]);
    const syntax = rule.filter === undefined ? undefined : filterSyntaxIssue(rule.filter);
    if (syntax !== undefined) ctx.addIssue({ code: 'custom', message: syntax, path: ['rules', i, 'filter'] });
  });
  config.redirects.forEach((redirect, i) => check(redirect.when, ['redirects', i]));
});

export const searchTokenSchema = z
  .strictObject({
    token: identifier,
    configurations: z.array(searchConfigurationSchema).min(1),
    defaultConfigurationId: identifier.optional(),
    /** Days of query history behind autocomplete. */
    autocompleteWindowDays: z.number().positive().max(365).default(7),
    /** Distinct shoppers whose results-page views a query needs before autocomplete offers it. */
    autocompleteMinShoppers: z.number().int().min(1).max(32).default(2),
  })
  .superRefine((token, ctx) => {
    const ids = token.configurations.map((c) => c.id);
    if (token.defaultConfigurationId !== undefined && !ids.includes(token.defaultConfigurationId)) {
      ctx.addIssue({ code: 'custom', message: `no configuration has this id (have: ${ids.join(', ')})`, path: ['defaultConfigurationId'] });
    }
  });

const widgetFilterSchema = z.union([
  /** Keep items sharing this attribute with the `$productId` item (or with `$<attribute>` in the variables). */
  z.strictObject({ sameAs: z.string().min(1) }),
  /** Keep items for which this filter-language expression holds; `$name` reads a request variable. */
  z.strictObject({ where: z.string().min(1) }),
]);

export const widgetSchema = z.strictObject({
  id: identifier,
  title: z.string().max(200).default(''),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  minResults: z.number().int().min(0).max(100).default(1),
  maxResults: z.number().int().min(1).max(100).default(10),
  strategies: z.array(z.enum(STRATEGIES)).min(1),
  filters: z.array(widgetFilterSchema).default([]),
  /** Leave out items the shopper bought; default: yes when the widget runs `personalized` (and not `buy-again`), else no. */
  excludePurchased: z.boolean().optional(),
  /** `personalized`: weight of recent popularity against the model's scores (each scaled to at most 1). */
  popularityWeight: z.number().min(0).max(10).optional(),
  /** `personalized`: order its best candidates by the learned ranking stage once one is trained (default true). */
  learnedRanking: z.boolean().optional(),
  /**
   * At most this many items of one family (a title's last two words, else its first category) in the
   * widget; the rest move below, best-scoring first. Default 3 for `personalized`, `similar` and
   * `bought-together` widgets, none for the others.
   */
  diversityCap: z.number().int().min(1).max(100).optional(),
  /** What tops the widget up to `minResults`: `popular` (then catalog order) or `none`; default `none` for `recently-viewed` or `buy-again` alone. */
  fallback: z.enum(['popular', 'none']).optional(),
  /** Minutes an e-mail's recommendation list stays fixed for one user (photo.png and redirect.html agree). */
  emailCacheMinutes: z.number().int().min(0).max(60 * 24 * 30).default(60 * 24),
  /** Where redirect.html sends a shopper when there is no item at the index (or its URL is unusable). */
  fallbackUrl: z.string().url().optional(),
  /**
   * The shop's address, against which e-mail links resolve site-relative product photos and URLs
   * (`/img/x.jpg`); without it they resolve against the origin the link was requested on.
   */
  shopUrl: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//i.test(url), 'an http(s) URL')
    .optional(),
});

const environmentSchema = z.strictObject({
  id: identifier,
  name: z.string().max(200).optional(),
  trackerKeys: z.array(identifier).default([]),
  searchTokens: z.array(searchTokenSchema).default([]),
  widgets: z.array(widgetSchema).default([]),
});

const consoleUserSchema = z.strictObject({
  username: identifier,
  /** `scrypt:<N>:<r>:<p>:<salt base64url>:<hash base64url>`, never the password itself. */
  passwordHash: z
    .string()
    .regex(/^scrypt:\d{1,7}:\d{1,2}:\d{1,2}:[A-Za-z0-9_-]{16,}:[A-Za-z0-9_-]{32,}$/, 'write the hash printed by `npm run console:password`'),
  role: z.enum(['read', 'edit']).default('edit'),
});

const tenantSchema = z.strictObject({
  id: identifier.refine((id) => id !== 'master', '"master" is the realm of the older APIs and cannot be a tenant id'),
  name: z.string().max(200).optional(),
  environments: z.array(environmentSchema).min(1),
  serviceAccounts: z.array(serviceAccountSchema).default([]),
  verbWeights: z.record(z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, 'verbs are lowercase words joined by "-"'), z.number()).default(DEFAULT_VERB_WEIGHTS),
  /** Identity repositories a storefront may name in `user.identities` (besides the anonymous session id). */
  identityRepositories: z.array(identifier).default([]),
  /** Datasources of the older tracker (`profile.datasources[].id`). */
  datasources: z.array(identifier).default([]),
  /** People who sign in to the console (/console/), with a scrypt password hash (`npm run console:password`). */
  consoleUsers: z.array(consoleUserSchema).default([]),
});

const mountPath = z.string().regex(/^\/([A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*)?$/, 'a path such as "/" or "/catalog"');

export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  /** Where each API is mounted on the one server (spec hosts → path prefixes). */
  mounts: z
    .strictObject({
      base: mountPath.default('/'),
      items: mountPath.default('/catalog'),
      search: mountPath.default('/'),
      collect: mountPath.default('/collect'),
      auth: mountPath.default('/'),
    })
    .default({ base: '/', items: '/catalog', search: '/', collect: '/collect', auth: '/' }),
  /** Public URL of the server as shops reach it (issuer of tokens, links in e-mails). Defaults to the listening address. */
  publicUrl: z.string().url().optional(),
  /**
   * Reverse proxies in front of the server that append the client's address to X-Forwarded-For
   * (0: none, the socket's address is the client). Rate limits count per client address.
   */
  trustedProxies: z.number().int().min(0).max(10).default(0),
  limits: z
    .strictObject({
      bodyBytes: z.number().int().min(1024).max(256 * 1024 * 1024).default(1024 * 1024),
      catalogBodyBytes: z.number().int().min(1024).max(1024 * 1024 * 1024).default(64 * 1024 * 1024),
      /** A request's headers must arrive within this many seconds of its first byte (docs/operations.md, "Connections"). */
      headersTimeoutSeconds: z.number().min(0.1).max(600).default(DEFAULT_HTTP_LIMITS.headersTimeoutSeconds),
      /** The whole request, headers and body, within this many seconds: a body trickled slower is cut. */
      requestTimeoutSeconds: z.number().min(0.1).max(3600).default(DEFAULT_HTTP_LIMITS.requestTimeoutSeconds),
      /** Open connections per process; past it new ones are closed at once. */
      maxConnections: z.number().int().min(1).max(1_000_000).default(DEFAULT_HTTP_LIMITS.maxConnections),
    })
    .refine((limits) => limits.headersTimeoutSeconds <= limits.requestTimeoutSeconds, { message: 'headersTimeoutSeconds must not exceed requestTimeoutSeconds', path: ['headersTimeoutSeconds'] })
    .default({ bodyBytes: 1024 * 1024, catalogBodyBytes: 64 * 1024 * 1024, ...DEFAULT_HTTP_LIMITS }),
  /** Per-address and per-key limits of the public APIs (collect, tracker, search, recommendations); see docs/operations.md. */
  publicRateLimits: z
    .strictObject({
      enabled: z.boolean().default(true),
      perAddress: z.strictObject({ perSecond: z.number().positive(), burst: z.number().int().min(1) }).default({ perSecond: 1000, burst: 2000 }),
      perKey: z.strictObject({ perSecond: z.number().positive(), burst: z.number().int().min(1) }).default({ perSecond: 5000, burst: 10000 }),
    })
    .default({ enabled: true, perAddress: { perSecond: 1000, burst: 2000 }, perKey: { perSecond: 5000, burst: 10000 } }),
  activityLog: z
    .strictObject({
      /** Days of activities kept; older segments are dropped after their aggregates are folded in. */
      retentionDays: z.number().int().min(1).max(3650).default(400),
      segmentBytes: z.number().int().min(1024).default(64 * 1024 * 1024),
      /** Activities of shoppers' recent histories held in memory per tenant; past it, the least recently active shoppers' lists are read from the log. */
      historyInMemory: z.number().int().min(1_000).default(250_000),
      /**
       * Activities the collection APIs acknowledged and have not folded yet, per tenant, past which they
       * answer 429 with Retry-After (and, on a shared log, seconds behind the other processes' appends).
       */
      foldLag: z.strictObject({ records: z.number().int().min(100).default(100_000), seconds: z.number().positive().default(30) }).default({ records: 100_000, seconds: 30 }),
      /**
       * On a log several processes share: how long an erasure's notice stays in it before the process that
       * wrote it removes it (docs/privacy.md). At least `foldLag.seconds`: every process folds it by then.
       */
      erasureNoticeSeconds: z.number().int().min(1).max(86_400).default(600),
      /** Snapshots of the activity state, so a start replays only the log after the newest (docs/operations.md). */
      snapshots: z
        .strictObject({
          enabled: z.boolean().default(true),
          everyRecords: z.number().int().min(1).default(200_000),
          everyMinutes: z.number().int().min(1).max(24 * 60).default(15),
        })
        .default({ enabled: true, everyRecords: 200_000, everyMinutes: 15 }),
    })
    .refine((log) => log.erasureNoticeSeconds >= log.foldLag.seconds, { message: 'must be at least foldLag.seconds: a process that far behind would miss the notice', path: ['erasureNoticeSeconds'] })
    .default({ retentionDays: 400, segmentBytes: 64 * 1024 * 1024, historyInMemory: 250_000, foldLag: { records: 100_000, seconds: 30 }, erasureNoticeSeconds: 600, snapshots: { enabled: true, everyRecords: 200_000, everyMinutes: 15 } }),
  /**
   * Worker threads that answer searches beside the main thread, each with a copy of every search index
   * (docs/operations.md, "Search threads"): uncached search throughput on more than one core, for the
   * memory of one more set of indexes per thread. 0 (the default): the main thread answers every search.
   */
  searchThreads: z.number().int().min(0).max(16).default(0),
  /** The trained item-to-item model behind `personalized` (docs/recommendations.md). */
  recommendationModel: z
    .strictObject({
      lambda: z.number().min(1).max(100_000).default(300),
      maxItems: z.number().int().min(10).max(8_000).default(2_500),
      neighbours: z.number().int().min(10).max(2_000).default(200),
      retrainMinutes: z.number().int().min(1).max(7 * 24 * 60).default(360),
      /** Train and use the learned ranking stage of `personalized` (false: the EASE and popularity blend alone). */
      learnedRanking: z.boolean().default(true),
    })
    .default({ lambda: 300, maxItems: 2_500, neighbours: 200, retrainMinutes: 360, learnedRanking: true }),
  tenants: z.array(tenantSchema).min(1),
});

export type DiscoveryConfig = z.output<typeof configSchema>;
export type TenantConfig = DiscoveryConfig['tenants'][number];
export type EnvironmentConfig = TenantConfig['environments'][number];
export type ServiceAccountConfig = TenantConfig['serviceAccounts'][number];
export type SearchTokenConfig = EnvironmentConfig['searchTokens'][number];
export type SearchConfiguration = SearchTokenConfig['configurations'][number];
export type FacetConfig = SearchConfiguration['facets'][number];
export type WidgetConfig = EnvironmentConfig['widgets'][number];
export type WidgetFilter = WidgetConfig['filters'][number];
