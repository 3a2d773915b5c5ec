/**
 * Experiments of an environment: defined as drafts, started, stopped, applied (the admin API), and
 * consulted by recommendations and search on each request (`forWidget`, `forSearch`), which draw the
 * shopper's variant, serve its settings and log the exposure. Definitions are one stored document per
 * tenant, so every process of a shared store sees the same ones; results are folded from the log.
 */
import type { Clock } from '../../platform/clock.js';
import type { ConfigRegistry } from '../../platform/config/registry.js';
import type { EnvironmentConfig, SearchConfiguration, WidgetConfig } from '../../platform/config/schema.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import type { Logger } from '../../platform/logger.js';
import { DomainError } from '../../platform/domain-error.js';
import type { ExperimentResults, ExperimentStamp } from '@discovery-kit/protocol';
import type { AdminActor, AdminScope, ConfigAdmin } from '../admin/config-admin.js';
import type { ActivityService } from '../tracking/activity-service.js';
import { drawVariant } from './assignment.js';
import { checkDefinition, currentSurface, surfaceKey, variantConfiguration, variantWidget, type Experiment, type ExperimentVariant } from './experiment-definitions.js';
import { ExperimentLedger } from './experiment-ledger.js';
import { experimentResults } from './experiment-results.js';

/** Experiments one environment keeps (drafts, running and stopped together). */
export const MAX_EXPERIMENTS = 50;

interface ExperimentsDocument {
  /** Environment id → experiment id → experiment. */
  environments: Record<string, Record<string, Experiment>>;
}

/** What a served response says about the experiment that touched it, and the exposure to log once it has an id. */
export interface Touched<T> {
  settings: T;
  stamp: ExperimentStamp;
  /** Logs the exposure (not awaited by the response: an exposure lost to a crash is not an acknowledged write). */
  expose(responseId: string): void;
}

export interface ExperimentsDeps {
  store: DocumentStore;
  registry: ConfigRegistry;
  admin: ConfigAdmin;
  activities: () => ActivityService;
  clock: Clock;
  logger: Logger;
}

export class Experiments {
  readonly ledger: ExperimentLedger;
  private readonly documents = new Map<string, Promise<StoredDocument<ExperimentsDocument>>>();
  /** Tenant → running experiments by `<environment>|<surface key>`; rebuilt whenever a tenant's document changes. */
  private readonly running = new Map<string, Map<string, Experiment>>();
  /** Loaded documents, read synchronously on the request path. */
  private readonly loaded = new Map<string, StoredDocument<ExperimentsDocument>>();

  constructor(private readonly deps: ExperimentsDeps) {
    this.ledger = new ExperimentLedger((tenantId, experimentId) => this.windowOf(tenantId, experimentId));
  }

  /** Loads every tenant's experiments before the activity log is replayed (the ledger reads their windows). */
  async open(tenantIds: readonly string[]): Promise<void> {
    for (const tenantId of tenantIds) await this.document(tenantId);
  }

  list(scope: AdminScope): Experiment[] {
    return Object.values(this.experimentsOf(scope)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  get(scope: AdminScope, id: string): Experiment {
    const found = this.experimentsOf(scope)[id];
    if (found === undefined) throw new DomainError('not_found', `No experiment "${id}" in this environment.`, { field: 'id' });
    return found;
  }

  async put(actor: AdminActor, scope: AdminScope, id: string, body: unknown): Promise<Experiment> {
    this.mayChange(actor, scope);
    const environment = this.deps.admin.environment(scope);
    const definition = checkDefinition(id, body, environment);
    const now = this.isoNow();
    return this.change(actor, scope, id, 'experiment.put', (experiments) => {
      const before = experiments[id];
      if (before === undefined && Object.keys(experiments).length >= MAX_EXPERIMENTS) {
        throw new DomainError('limit_exceeded', `An environment keeps at most ${MAX_EXPERIMENTS} experiments; delete one first.`, { field: 'id' });
      }
      if (before !== undefined && before.status !== 'draft') {
        // Once shoppers were served, only the name and the primary metric may change: anything else would mix two tests.
        const wanted = { ...definition, configurationId: definition.configurationId ?? before.configurationId };
        const changed = (['widget', 'searchToken', 'configurationId', 'variants'] as const).find((key) => JSON.stringify(before[key]) !== JSON.stringify(wanted[key]));
        if (changed !== undefined) throw new DomainError('conflict', `Experiment "${id}" is ${before.status}: its ${changed} can no longer change (define a new experiment).`, { field: changed });
      }
      const next: Experiment = before === undefined ? { ...definition, id, status: 'draft', createdAt: now, updatedAt: now } : before.status === 'draft' ? { ...definition, id, status: 'draft', createdAt: before.createdAt, updatedAt: now } : { ...before, name: definition.name, primaryMetric: definition.primaryMetric, updatedAt: now };
      experiments[id] = next;
      return { before: before ?? null, after: next };
    });
  }

  async remove(actor: AdminActor, scope: AdminScope, id: string): Promise<void> {
    this.mayChange(actor, scope);
    this.get(scope, id);
    await this.change(actor, scope, id, 'experiment.delete', (experiments) => {
      const before = experiments[id]!;
      if (before.status === 'running') throw new DomainError('conflict', `Experiment "${id}" is running: stop it before deleting it.`, { field: 'status' });
      delete experiments[id];
      return { before, after: null };
    });
  }

  async start(actor: AdminActor, scope: AdminScope, id: string): Promise<Experiment> {
    this.mayChange(actor, scope);
    const environment = this.deps.admin.environment(scope);
    return this.change(actor, scope, id, 'experiment.start', (experiments) => {
      const before = this.require(experiments, id);
      if (before.status !== 'draft') throw new DomainError('conflict', `Experiment "${id}" is ${before.status}: only a draft starts.`, { field: 'status' });
      // The surface may have changed since the draft was saved: its variants must still fit.
      const { name, widget, searchToken, configurationId, primaryMetric, variants } = before;
      checkDefinition(id, { name, widget, searchToken, configurationId, primaryMetric, variants }, environment);
      const key = surfaceKey(before, environment);
      const other = Object.values(experiments).find((e) => e.status === 'running' && surfaceKey(e, environment) === key);
      if (other !== undefined) throw new DomainError('conflict', `Experiment "${other.id}" is already running on this ${before.widget !== undefined ? 'widget' : 'search configuration'}.`, { field: before.widget !== undefined ? 'widget' : 'searchToken' });
      const now = this.isoNow();
      // A search experiment keeps the configuration it started on, even if the token's default changes later.
      const surface = currentSurface(before, environment);
      const pinned = surface.kind === 'search' ? { configurationId: surface.configuration.id } : {};
      experiments[id] = { ...before, ...pinned, status: 'running', startedAt: now, updatedAt: now };
      return { before: { status: before.status }, after: { status: 'running' } };
    });
  }

  async stop(actor: AdminActor, scope: AdminScope, id: string): Promise<Experiment> {
    this.mayChange(actor, scope);
    return this.change(actor, scope, id, 'experiment.stop', (experiments) => {
      const before = this.require(experiments, id);
      if (before.status !== 'running') throw new DomainError('conflict', `Experiment "${id}" is ${before.status}: only a running one stops.`, { field: 'status' });
      const now = this.isoNow();
      experiments[id] = { ...before, status: 'stopped', stoppedAt: now, updatedAt: now };
      return { before: { status: 'running' }, after: { status: 'stopped' } };
    });
  }

  /** Writes a variant's settings into the surface (through the admin API's own change, so it is audited too). */
  async apply(actor: AdminActor, scope: AdminScope, id: string, variantId: unknown): Promise<Experiment> {
    this.mayChange(actor, scope);
    const experiment = this.get(scope, id);
    if (experiment.status === 'running') throw new DomainError('conflict', `Experiment "${id}" is running: stop it before applying a variant.`, { field: 'status' });
    if (experiment.status === 'draft') throw new DomainError('conflict', `Experiment "${id}" never ran: there is no winner to apply.`, { field: 'status' });
    const variant = experiment.variants.find((v) => v.id === variantId);
    if (variant === undefined) throw new DomainError('invalid', `Experiment "${id}" has no variant ${JSON.stringify(variantId)}.`, { field: 'variant' });
    const surface = currentSurface(experiment, this.deps.admin.environment(scope));
    if (surface.kind === 'widget') await this.deps.admin.putWidget(actor, scope, surface.widget.id, variantWidget(surface.widget, variant));
    else await this.deps.admin.putSearchConfiguration(actor, scope, surface.token, surface.configuration.id, variantConfiguration(surface.configuration, variant));
    return this.change(actor, scope, id, 'experiment.apply', (experiments) => {
      const before = this.require(experiments, id);
      experiments[id] = { ...before, appliedVariant: variant.id, updatedAt: this.isoNow() };
      return { before: { appliedVariant: before.appliedVariant ?? null }, after: { appliedVariant: variant.id } };
    });
  }

  results(scope: AdminScope, id: string): ExperimentResults {
    return experimentResults(this.get(scope, id), this.ledger.figures(scope.tenantId, id), this.deps.clock.now());
  }

  /**
   * The widget a recommendation request serves: the variant's for a shopper of a running experiment,
   * else the widget itself (and no stamp). Without a shopper id the control is served and not counted.
   */
  forWidget(tenantId: string, environmentId: string, widget: WidgetConfig, shopperId: string | undefined, profileId: string | undefined): Touched<WidgetConfig> | undefined {
    const running = this.running.get(tenantId);
    // Nearly always: nothing runs, and the request pays one lookup.
    if (running === undefined || running.size === 0 || shopperId === undefined) return undefined;
    const experiment = running.get(`${environmentId}|widget:${widget.id}`);
    if (experiment === undefined) return undefined;
    return this.touch(tenantId, experiment, shopperId, profileId, widget, variantWidget);
  }

  /** As `forWidget`, for a search, suggest or autocomplete request on a token's configuration. */
  forSearch(tenantId: string, environmentId: string, token: string, configuration: SearchConfiguration, shopperId: string | undefined): Touched<SearchConfiguration> | undefined {
    const running = this.running.get(tenantId);
    if (running === undefined || running.size === 0 || shopperId === undefined) return undefined;
    const experiment = running.get(`${environmentId}|search:${token}/${configuration.id}`);
    if (experiment === undefined) return undefined;
    // The session entry is usually the tracker's profile id (the elements send it) or a session the tracker saw: its profile, when known, ties later activities and erasure to the exposure.
    const activities = this.deps.activities();
    const profileId = activities.findProfile(tenantId, { profileId: shopperId })?.id ?? activities.findProfile(tenantId, { sessionId: shopperId })?.id;
    return this.touch(tenantId, experiment, shopperId, profileId, configuration, variantConfiguration);
  }

  private touch<T>(tenantId: string, experiment: Experiment, shopperId: string, profileId: string | undefined, base: T, merge: (base: T, variant: ExperimentVariant) => T): Touched<T> | undefined {
    const { variantId } = drawVariant(shopperId, experiment.id, experiment.variants);
    const variant = experiment.variants.find((v) => v.id === variantId)!;
    let settings: T;
    try {
      settings = merge(base, variant);
    } catch (error) {
      // The surface changed since the experiment started and the override no longer fits: the shopper gets the surface as it is, uncounted.
      this.deps.logger.warn({ tenant: tenantId, experiment: experiment.id, variant: variant.id, err: error }, 'an experiment variant no longer fits its surface; serving the control');
      return undefined;
    }
    return {
      settings,
      stamp: { id: experiment.id, variant: variant.id },
      expose: (responseId) => {
        this.deps
          .activities()
          .logExposures(tenantId, [{ experiment: experiment.id, variant: variant.id, shopper: shopperId, profileId: profileId ?? shopperId, responseId }])
          .catch((error: unknown) => this.deps.logger.error({ err: error, tenant: tenantId }, 'logging an experiment exposure failed'));
      },
    };
  }

  private windowOf(tenantId: string, experimentId: string): { startedAt: number; stoppedAt?: number } | undefined {
    for (const experiments of Object.values(this.loaded.get(tenantId)?.data.environments ?? {})) {
      const experiment = experiments[experimentId];
      if (experiment?.startedAt !== undefined) return { startedAt: Date.parse(experiment.startedAt), stoppedAt: experiment.stoppedAt === undefined ? undefined : Date.parse(experiment.stoppedAt) };
    }
    return undefined;
  }

  private experimentsOf(scope: AdminScope): Record<string, Experiment> {
    this.deps.admin.environment(scope);
    return this.loaded.get(scope.tenantId)?.data.environments[scope.environmentId] ?? {};
  }

  private require(experiments: Record<string, Experiment>, id: string): Experiment {
    const found = experiments[id];
    if (found === undefined) throw new DomainError('not_found', `No experiment "${id}" in this environment.`, { field: 'id' });
    return found;
  }

  private mayChange(actor: AdminActor, scope: AdminScope): void {
    if (actor.role !== 'edit') throw new DomainError('forbidden', 'This account may read experiments but not change them (its role is "read").');
    if (actor.tenantId !== scope.tenantId) throw new DomainError('forbidden', `This account belongs to tenant "${actor.tenantId}".`, { field: 'tenant' });
  }

  /** One change to an environment's experiments, written, indexed and audited; a throw in `mutate` stores nothing. */
  private async change(actor: AdminActor, scope: AdminScope, id: string, action: string, mutate: (experiments: Record<string, Experiment>) => { before: unknown; after: unknown }): Promise<Experiment> {
    const doc = await this.document(scope.tenantId);
    const { before, after } = await doc.update((data) => mutate((data.environments[scope.environmentId] ??= {})));
    this.index(scope.tenantId);
    await this.deps.admin.audit.append(scope.tenantId, { at: this.isoNow(), actor: actor.id, action, environment: scope.environmentId, target: `experiment:${id}`, before: structuredClone(before), after: structuredClone(after) });
    return doc.data.environments[scope.environmentId]?.[id] ?? (after as Experiment);
  }

  private document(tenantId: string): Promise<StoredDocument<ExperimentsDocument>> {
    let doc = this.documents.get(tenantId);
    if (doc === undefined) {
      doc = this.deps.store.document<ExperimentsDocument>(`experiments/${tenantId}`, () => ({ environments: {} })).then((loaded) => {
        this.loaded.set(tenantId, loaded);
        this.index(tenantId);
        // Another process started or stopped one: this process serves it from its next request.
        loaded.onChange?.(() => this.index(tenantId));
        return loaded;
      });
      this.documents.set(tenantId, doc);
    }
    return doc;
  }

  private index(tenantId: string): void {
    const byKey = new Map<string, Experiment>();
    const tenant = this.deps.registry.findTenant(tenantId);
    for (const [environmentId, experiments] of Object.entries(this.loaded.get(tenantId)?.data.environments ?? {})) {
      const environment: EnvironmentConfig | undefined = tenant?.environments.find((e) => e.id === environmentId);
      if (environment === undefined) continue;
      for (const experiment of Object.values(experiments)) if (experiment.status === 'running') byKey.set(`${environmentId}|${surfaceKey(experiment, environment)}`, experiment);
    }
    this.running.set(tenantId, byKey);
    // An experiment deleted through another process: its figures go here too.
    const defined = new Set(Object.values(this.loaded.get(tenantId)?.data.environments ?? {}).flatMap((experiments) => Object.keys(experiments)));
    this.ledger.retain(tenantId, defined);
  }

  private isoNow(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
