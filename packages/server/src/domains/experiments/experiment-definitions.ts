/**
 * What an experiment is and how a definition is checked: its shape (2 to 5 variants, integer weights
 * summing to 100, the first the control), its surface (a widget or a search token of the environment),
 * and each variant's override, which the surface's own validation must accept once merged in.
 */
import { z } from 'zod';
import type { FieldIssue } from '@discovery-kit/protocol';
import type { EnvironmentConfig, SearchConfiguration, WidgetConfig } from '../../platform/config/schema.js';
import { DomainError } from '../../platform/domain-error.js';
import { invalidInput, parseInput } from '../../platform/validation.js';
import { checkSearchConfiguration, checkWidget } from '../admin/resource-checks.js';

export const EXPERIMENT_METRICS = ['clickThroughRate', 'addToCartRate', 'conversionRate', 'revenuePerUser'] as const;
export type ExperimentMetric = (typeof EXPERIMENT_METRICS)[number];

const identifier = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit');

const overrides = z.record(z.string(), z.unknown()).refine((value) => Object.keys(value).length <= 40, 'at most 40 fields');

export const experimentRequestSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string().trim().min(1).max(200),
  widget: z.string().min(1).max(200).optional(),
  searchToken: z.string().min(1).max(200).optional(),
  configurationId: z.string().min(1).max(200).optional(),
  primaryMetric: z.enum(EXPERIMENT_METRICS).default('conversionRate'),
  variants: z
    .array(
      z.strictObject({
        id: identifier,
        weight: z.number().int().min(1).max(100),
        widget: overrides.optional(),
        configuration: overrides.optional(),
      }),
    )
    .min(2, 'an experiment has 2 to 5 variants')
    .max(5, 'an experiment has 2 to 5 variants'),
});

export type ExperimentDefinition = Omit<z.output<typeof experimentRequestSchema>, 'id'>;
export type ExperimentVariant = ExperimentDefinition['variants'][number];

export interface Experiment extends ExperimentDefinition {
  id: string;
  status: 'draft' | 'running' | 'stopped';
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  stoppedAt?: string;
  appliedVariant?: string;
}

/** The settings a variant serves: the surface's own with the variant's fields over them. */
export type Surface = { kind: 'widget'; widget: WidgetConfig } | { kind: 'search'; token: string; configuration: SearchConfiguration };

/** The surface key one running experiment at a time may hold: `widget:<id>` or `search:<token>/<configuration>`. */
export function surfaceKey(experiment: Pick<ExperimentDefinition, 'widget' | 'searchToken' | 'configurationId'>, environment: EnvironmentConfig): string {
  if (experiment.widget !== undefined) return `widget:${experiment.widget}`;
  const token = environment.searchTokens.find((t) => t.token === experiment.searchToken);
  const configurationId = experiment.configurationId ?? token?.defaultConfigurationId ?? token?.configurations[0]?.id ?? '';
  return `search:${experiment.searchToken}/${configurationId}`;
}

/** The surface as the environment holds it now; a refusal names the field when it is gone. */
export function currentSurface(experiment: Pick<ExperimentDefinition, 'widget' | 'searchToken' | 'configurationId'>, environment: EnvironmentConfig): Surface {
  if (experiment.widget !== undefined) {
    const widget = environment.widgets.find((w) => w.id === experiment.widget);
    if (widget === undefined) throw new DomainError('invalid', `No widget "${experiment.widget}" in this environment.`, { field: 'widget', code: 'unknown_widget' });
    return { kind: 'widget', widget };
  }
  const token = environment.searchTokens.find((t) => t.token === experiment.searchToken);
  if (token === undefined) throw new DomainError('invalid', `No search token "${experiment.searchToken}" in this environment.`, { field: 'searchToken' });
  const configurationId = experiment.configurationId ?? token.defaultConfigurationId ?? token.configurations[0]!.id;
  const configuration = token.configurations.find((c) => c.id === configurationId);
  if (configuration === undefined) throw new DomainError('invalid', `Search token "${experiment.searchToken}" has no configuration "${configurationId}".`, { field: 'configurationId' });
  return { kind: 'search', token: token.token, configuration };
}

/** Parses and checks a definition against the environment: every refusal is a 400 naming the field. */
export function checkDefinition(id: string, body: unknown, environment: EnvironmentConfig): ExperimentDefinition {
  parseInput(identifier, id, 'id');
  const { id: given, ...definition } = parseInput(experimentRequestSchema, body);
  const issues: FieldIssue[] = [];
  if (given !== undefined && given !== id) issues.push({ path: 'id', message: `is "${given}" but the URL names "${id}"` });
  if ((definition.widget === undefined) === (definition.searchToken === undefined)) issues.push({ path: 'widget', message: 'name exactly one surface: "widget" or "searchToken"' });
  if (definition.widget !== undefined && definition.configurationId !== undefined) issues.push({ path: 'configurationId', message: 'only a search experiment names a configuration' });
  const total = definition.variants.reduce((sum, v) => sum + v.weight, 0);
  if (total !== 100) issues.push({ path: 'variants', message: `the weights sum to ${total}, not 100` });
  const seen = new Set<string>();
  definition.variants.forEach((variant, i) => {
    if (seen.has(variant.id)) issues.push({ path: `variants[${i}].id`, message: `variant id "${variant.id}" is used twice` });
    seen.add(variant.id);
    const wrong = definition.widget !== undefined ? 'configuration' : 'widget';
    if (variant[wrong] !== undefined) issues.push({ path: `variants[${i}].${wrong}`, message: `a ${definition.widget !== undefined ? 'widget' : 'search'} experiment's variants override "${wrong === 'widget' ? 'configuration' : 'widget'}"` });
    if (i === 0 && (variant.widget !== undefined || variant.configuration !== undefined)) issues.push({ path: 'variants[0]', message: 'the first variant is the control: it serves the surface as it is and overrides nothing' });
  });
  if (issues.length > 0) throw invalidInput(issues);
  const surface = currentSurface(definition, environment);
  definition.variants.forEach((variant, i) => {
    if (i > 0) checkOverride(surface, variant, `variants[${i}]`);
  });
  return definition;
}

/** The surface's validation over the merged settings; its refusal is renamed to the variant's field. */
function checkOverride(surface: Surface, variant: ExperimentVariant, root: string): void {
  try {
    if (surface.kind === 'widget' && variant.widget !== undefined) {
      if ('id' in variant.widget) throw invalidInput([{ path: 'id', message: 'a variant cannot rename the widget' }]);
      checkWidget(surface.widget.id, { ...surface.widget, ...variant.widget });
    }
    if (surface.kind === 'search' && variant.configuration !== undefined) {
      if ('id' in variant.configuration) throw invalidInput([{ path: 'id', message: 'a variant cannot rename the configuration' }]);
      checkSearchConfiguration(surface.configuration.id, { ...surface.configuration, ...variant.configuration });
    }
  } catch (error) {
    if (!(error instanceof DomainError) || error.issues === undefined) throw error;
    const field = surface.kind === 'widget' ? 'widget' : 'configuration';
    throw invalidInput(error.issues.map((issue) => ({ path: `${root}.${field}.${issue.path}`, message: issue.message })));
  }
}

/**
 * The widget a variant serves: the surface's settings with the variant's fields over them, parsed by
 * the widget's schema (so defaults and types are the file's). Memoised per surface object and variant
 * object (both replaced whole when changed), so the per-request cost is a lookup and the search's
 * answer cache, keyed by configuration identity, keeps working. Throws when the surface changed since
 * in a way the override no longer fits (the caller then serves the control).
 */
const mergedWidgets = new WeakMap<WidgetConfig, WeakMap<ExperimentVariant, WidgetConfig>>();
const mergedConfigurations = new WeakMap<SearchConfiguration, WeakMap<ExperimentVariant, SearchConfiguration>>();

export function variantWidget(base: WidgetConfig, variant: ExperimentVariant): WidgetConfig {
  if (variant.widget === undefined) return base;
  return memo(mergedWidgets, base, variant, () => checkWidget(base.id, { ...base, ...variant.widget }));
}

export function variantConfiguration(base: SearchConfiguration, variant: ExperimentVariant): SearchConfiguration {
  if (variant.configuration === undefined) return base;
  return memo(mergedConfigurations, base, variant, () => checkSearchConfiguration(base.id, { ...base, ...variant.configuration }));
}

function memo<B extends object, T>(cache: WeakMap<B, WeakMap<ExperimentVariant, T>>, base: B, variant: ExperimentVariant, make: () => T): T {
  let byVariant = cache.get(base);
  if (byVariant === undefined) cache.set(base, (byVariant = new WeakMap()));
  let value = byVariant.get(variant);
  if (value === undefined) byVariant.set(variant, (value = make()));
  return value;
}
