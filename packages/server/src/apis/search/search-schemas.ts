/** The search API's request schemas (search, suggest, autocomplete): what each body may hold, and the defaults. */
import { z } from 'zod';
import type { AutocompleteRequest, SearchRequest, SuggestRequest } from '@discovery-kit/protocol';

export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 10_000;
export const MAX_SORT_KEYS = 8;
/** What a request may switch off; `learning` leaves the learned order out, `personalization` the shopper's interests. */
export const DISABLE_NAMES = ['facet', 'item', 'group', 'redirect', 'correction', 'learning', 'personalization'] as const;

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
  facets: z.array(z.strictObject({ id: z.string().min(1), values: z.array(z.string()).default([]) })).default([]),
  filter: z.string().max(10_000).optional(),
  customResponseMask: z.string().max(2_000).optional(),
  disable: z.array(z.object({ name: z.enum(DISABLE_NAMES) })).default([]),
  highlight: z.union([z.literal(true), z.literal(false), z.array(z.string().min(1).max(100)).max(20)]).optional(),
  /**
   * Sent while the shopper is still typing (the search box's instant results): answered as any search,
   * but counted in query analytics and autocomplete only once a result of it is clicked.
   */
  asYouType: z.boolean().optional(),
});

export const searchSchema = z.object({
  token: z.string().min(1),
  query: z.string().max(1_000).default(''),
  configurationId: z.string().optional(),
  options: optionsSchema.default(optionsSchema.parse({})),
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
      groupBy: z.strictObject({ attribute: z.string().min(1), size: z.number().int().min(0).max(100).default(5), values: z.array(z.string()).default([]) }),
    }),
});

export const autocompleteSchema = z.object({
  token: z.string().min(1),
  query: z.string().max(1_000),
  configurationId: z.string().optional(),
  options: z.object({ numberOfSuggestions: z.number().int().min(1).max(20).default(10), categories: z.boolean().default(false) }).default({ numberOfSuggestions: 10, categories: false }),
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
