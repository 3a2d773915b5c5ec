/**
 * The search configuration's `language` values: the configuration's vocabulary, declared here so the
 * schema needs nothing from the domains; search (domains/search/index/language.ts) gives each its stemmer,
 * and the type-check fails if one is missing there.
 */
export const LANGUAGES = ['english', 'danish', 'dutch', 'finnish', 'french', 'german', 'italian', 'norwegian', 'portuguese', 'spanish', 'swedish'] as const;

export type Language = (typeof LANGUAGES)[number];
