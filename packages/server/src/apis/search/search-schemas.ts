/** The search API's request schemas (search, suggest, autocomplete): what each body may hold, and the defaults. */
import { z } from 'zod';
import type { AutocompleteRequest, SearchRequest, SuggestRequest } from '@discovery-kit/protocol';

export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 10_000;
export const MAX_SORT_KEYS = 8;
/** What a request may switch off; `learning` leaves the learned order out, `personalization` the shopper's interests. */
export const DISABLE_NAMES = ['facet', 'item', 'group', 'redirect', 'correction', 'learning', 'leads', 'personalization'] as const;

const optionsSchema = z.object({
  offset: z.number().int().min(0).max(MAX_OFFSET).default(0),
  // Larger pages are clamped rather than refused: a client asking for "everything" still gets an answer.
  limit: z.number().int().min(0).default(10).transform((n) => Math.min(n, MAX_LIMIT)),
  // The interface shows `asc`; clients written against it also send `ASC`/`DESC`, so case is not significant.
  sortBy: z
    .array(z.strictObject({ attribute: z.string().min(1).max(200), order: z.string().transform((o) => o.toLowerCase()).pipe(z.enum(['asc', 'desc'])).default('asc') }))
    // Each distinct order ranks the whole catalog once: a few keys are all any shop sorts by.
    .max(MAX_SORT_KEYS)
    .default([]),
  // The 2.0 definition also sends the facet's `attribute` (required there, deprecated): it names the
  // facet when `id` does not (search-api.ts `facetsOf`).
  facets: z
    .array(
      z
        .strictObject({ id: z.string().max(200).optional(), attribute: z.string().max(200).optional(), values: z.array(z.string()).default([]) })
        .refine((facet) => (facet.id ?? '') !== '' || (facet.attribute ?? '') !== '', { message: 'a facet needs an id (or, in the 2.0 definition, an attribute)', path: ['id'] }),
    )
    .default([]),
  filter: z.string().max(10_000).optional(),
  customResponseMask: z.string().max(2_000).optional(),
  disable: z.array(z.object({ name: z.enum(DISABLE_NAMES) })).default([]),
  highlight: z.union([z.literal(true), z.literal(false), z.array(z.string().min(1).max(100)).max(20)]).optional(),
  /**
   * Sent while the shopper is still typing (the search box's instant results): answered as any search,
   * but counted in query analytics and autocomplete only once a result of it is clicked.
   */
  asYouType: z.boolean().optional(),
  /** The definition's AI Search toggle: accepted; this server's full-text search answers either way (docs/search.md). */
  aiSearch: z.boolean().optional(),
});

const groupByOptions = z.strictObject({ attribute: z.string().min(1).max(200), size: z.number().int().min(0).max(100).default(5), values: z.array(z.string()).max(100).default([]) });

/** `groupOptions`: groups of the matches, answered in `groups` beside `items` (only when `groupBy` is given). */
const groupOptionsSchema = z.strictObject({
  sortBy: optionsSchema.shape.sortBy,
  filter: optionsSchema.shape.filter,
  customResponseMask: optionsSchema.shape.customResponseMask,
  groupBy: groupByOptions.optional(),
});

export const searchSchema = z.object({
  token: z.string().min(1),
  query: z.string().max(1_000).default(''),
  configurationId: z.string().optional(),
  /** Deprecated in the definition for `itemOptions`; when both are sent, `itemOptions` is used (docs/search.md). */
  options: optionsSchema.default(optionsSchema.parse({})),
  itemOptions: optionsSchema.optional(),
  groupOptions: groupOptionsSchema.optional(),
  /** `{session, variables | contextVariables}`: read by search-context.ts, which names each refused field. */
  context: z.unknown().optional(),
  disable: z.array(z.object({ name: z.enum(DISABLE_NAMES) })).default([]),
});

export const suggestSchema = z.object({
  token: z.string().min(1),
  query: z.string().max(1_000).default(''),
  configurationId: z.string().optional(),
  options: z
    .object({
      sortBy: optionsSchema.shape.sortBy,
      filter: optionsSchema.shape.filter,
      customResponseMask: optionsSchema.shape.customResponseMask,
      groupBy: groupByOptions,
    }),
  /** As search's: the published client sends it with suggest too; rules' conditions read its variables. */
  context: z.unknown().optional(),
});

export const autocompleteSchema = z.object({
  token: z.string().min(1),
  query: z.string().max(1_000),
  configurationId: z.string().optional(),
  options: z
    .object({ numberOfSuggestions: z.number().int().min(1).max(20).default(10), categories: z.boolean().default(false), filter: optionsSchema.shape.filter })
    .default({ numberOfSuggestions: 10, categories: false }),
  /** `facet`: no category suggestions; `item`: no counts (`suggestions[].count`). */
  disable: z.array(z.object({ name: z.enum(DISABLE_NAMES) })).default([]),
});

/**
 * Compile-time only: whatever the published request types allow, these schemas accept (the responses
 * are declared with the wire types where they are built). Nothing here runs.
 */
export type PublishedRequestsAccepted = [
  Accepts<z.input<typeof searchSchema>, SearchRequest>,
  Accepts<z.input<typeof suggestSchema>, SuggestRequest>,
  Accepts<z.input<typeof autocompleteSchema>, AutocompleteRequest>,
];
type Accepts<Schema, Published extends Schema> = [Schema, Published];
