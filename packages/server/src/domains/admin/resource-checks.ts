/**
 * Validation of what the admin API stores: the configuration file's own zod schemas first (so a
 * change is refused exactly as the file would be), then the rules the file check leaves to run time
 * and that would otherwise break search or recommendations for shoppers.
 */
import { searchConfigurationSchema, searchTokenSchema, widgetSchema, type SearchConfiguration, type SearchTokenConfig, type WidgetConfig } from '../../platform/config/schema.js';
import { FilterSyntaxError } from '../../platform/filter-language/filter-syntax-error.js';
import { parseFilterTemplate } from '../../platform/filter-language/parse-filter.js';
import type { FieldIssue } from '@discovery-kit/protocol';
import { invalidInput, parseInput } from '../../platform/validation.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body's `id` (when given) must be the one in the URL; the URL's id is used when it is left out. */
function withId(body: unknown, key: string, id: string): unknown {
  if (!isObject(body)) return body;
  if (body[key] !== undefined && body[key] !== id) throw invalidInput([{ path: key, message: `is "${String(body[key])}" but the URL names "${id}"; rename by creating a new one` }]);
  return { ...body, [key]: id };
}

export function checkWidget(id: string, body: unknown): WidgetConfig {
  const widget = parseInput(widgetSchema, withId(body, 'id', id));
  const issues: FieldIssue[] = [];
  if (widget.minResults > widget.maxResults) issues.push({ path: 'minResults', message: `${widget.minResults} is more than maxResults (${widget.maxResults})` });
  widget.filters.forEach((filter, i) => {
    if (!('where' in filter)) return;
    try {
      parseFilterTemplate(filter.where);
    } catch (error) {
      if (!(error instanceof FilterSyntaxError)) throw error;
      issues.push({ path: `filters[${i}].where`, message: error.message });
    }
  });
  if (issues.length > 0) throw invalidInput(issues);
  return widget;
}

const HTTP_URL = /^https?:\/\//i;

function words(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Rules a search configuration needs beyond its schema: nothing a shopper's query could trip on. */
function configurationIssues(config: SearchConfiguration, root: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const at = (path: string) => (root === '' ? path : `${root}.${path}`);
  config.redirects.forEach((redirect, i) => {
    if (!HTTP_URL.test(redirect.url)) issues.push({ path: at(`redirects[${i}].url`), message: 'a redirect goes to an http(s) URL' });
    redirect.queries.forEach((query, q) => {
      if (words(query) === '') issues.push({ path: at(`redirects[${i}].queries[${q}]`), message: 'a query needs at least one word' });
    });
  });
  const ruleQueries = new Map<string, number>();
  config.rules.forEach((rule, i) => {
    const query = rule.query === undefined ? undefined : words(rule.query);
    if (query === '') issues.push({ path: at(`rules[${i}].query`), message: 'a rule needs a query with at least one word' });
    // Two rules of one query and the same conditions would always fire together: one is enough.
    const key = JSON.stringify([query ?? null, rule.when ?? null]);
    const earlier = ruleQueries.get(key);
    if (earlier !== undefined) issues.push({ path: at(`rules[${i}].query`), message: `rules[${earlier}] already has ${query === undefined ? 'these conditions' : `the query "${query}"`}${rule.when === undefined ? '' : ' and conditions'}; merge them` });
    ruleQueries.set(key, i);
    const promoted = new Set([...rule.pin, ...rule.boost]);
    const both = rule.bury.find((id) => promoted.has(id));
    if (both !== undefined) issues.push({ path: at(`rules[${i}].bury`), message: `"${both}" is both promoted and buried` });
  });
  config.synonyms.forEach((group, g) => {
    group.forEach((word, w) => {
      if (words(word) === '') issues.push({ path: at(`synonyms[${g}][${w}]`), message: 'a synonym needs at least one word' });
    });
  });
  const facetIds = new Set<string>();
  config.facets.forEach((facet, f) => {
    if (facetIds.has(facet.id)) issues.push({ path: at(`facets[${f}].id`), message: `facet id "${facet.id}" is used twice` });
    facetIds.add(facet.id);
    if (facet.type === 'range' && (facet.ranges ?? []).length === 0) issues.push({ path: at(`facets[${f}].ranges`), message: 'a range facet needs ranges' });
  });
  return issues;
}

export function checkSearchConfiguration(id: string, body: unknown): SearchConfiguration {
  const config = parseInput(searchConfigurationSchema, withId(body, 'id', id));
  const issues = configurationIssues(config, '');
  if (issues.length > 0) throw invalidInput(issues);
  return config;
}

export function checkSearchToken(token: string, body: unknown): SearchTokenConfig {
  const parsed = parseInput(searchTokenSchema, withId(body, 'token', token));
  const issues: FieldIssue[] = [];
  const ids = new Set<string>();
  parsed.configurations.forEach((config, i) => {
    if (ids.has(config.id)) issues.push({ path: `configurations[${i}].id`, message: `configuration id "${config.id}" is used twice` });
    ids.add(config.id);
    issues.push(...configurationIssues(config, `configurations[${i}]`));
  });
  if (issues.length > 0) throw invalidInput(issues);
  return parsed;
}
