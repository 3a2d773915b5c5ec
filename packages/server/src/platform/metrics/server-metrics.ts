/**
 * The operator's Prometheus metrics (prom-client), one registry per server so that several servers in
 * one process (tests) never share counters. Labels are route patterns and status codes, never raw
 * paths or tenant data, so the number of series stays bounded whatever the public sends.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class ServerMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly activitiesCollected: Counter;
  readonly activitiesUnverified: Counter;
  readonly logAppendSeconds: Histogram;
  readonly indexBuildSeconds: Histogram;
  readonly modelTrainingSeconds: Histogram;
  readonly modelsLoaded: Counter;
  readonly searchThreadAnswers: Counter<'answered_by'>;
  /** Set by the composition root: how many query keys search learning holds now. */
  readonly learnedQueries: { collect: () => number } = { collect: () => 0 };
  /** Set by the composition root: documents in the live search indexes (SearchService.documentCount). */
  readonly searchDocuments: { collect: () => number } = { collect: () => 0 };
  /** Set by the composition root: tenants whose recommendation model this process trains now (ModelTrainer.trainingTenants). */
  readonly trainingTenants: { collect: () => number } = { collect: () => 0 };
  /** Set by the composition root: the activity fold's lag (tracking's ActivityService.foldLag). */
  readonly foldLag: { collect: () => { records: number; seconds: number } } = { collect: () => ({ records: 0, seconds: 0 }) };

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'discovery_' });
    this.requests = new Counter({ name: 'discovery_http_requests_total', help: 'HTTP requests answered, by route pattern and status.', labelNames: ['method', 'route', 'status'], registers });
    this.requestSeconds = new Histogram({
      name: 'discovery_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    });
    this.activitiesCollected = new Counter({ name: 'discovery_activities_collected_total', help: 'Activities durably logged since the server started.', registers });
    this.activitiesUnverified = new Counter({
      name: 'discovery_activities_unverified_total',
      help: 'Activities logged since the server started that named a response id not issued to their tenant, or a widget without one: stored, credited to nothing.',
      registers,
    });
    this.logAppendSeconds = new Histogram({
      name: 'discovery_activity_log_append_seconds',
      help: 'Time to append (and fsync) one group of activities to the log.',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    this.indexBuildSeconds = new Histogram({
      name: 'discovery_search_index_build_seconds',
      help: 'Time to build a search index over an active catalog.',
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.searchThreadAnswers = new Counter({
      name: 'discovery_search_thread_answers_total',
      help: 'With search threads configured: searches by who answered them, a search thread or the main thread (no thread in step with its index, or the thread failed).',
      labelNames: ['answered_by'],
      registers,
    });
    const learned = this.learnedQueries;
    const documents = this.searchDocuments;
    new Gauge({
      name: 'discovery_search_index_documents',
      help: 'Documents in the live search indexes of this process, every environment together (0 on an ingest-only process, which keeps none).',
      registers,
      collect() {
        this.set(documents.collect());
      },
    });
    const training = this.trainingTenants;
    new Gauge({
      name: 'discovery_recommendation_trainer_tenants',
      help: 'Tenants whose recommendation model this process trains: those whose trainer lease it holds on a shared store (0 with --no-training), or every tenant when it is alone on its store.',
      registers,
      collect() {
        this.set(training.collect());
      },
    });
    const foldLag = this.foldLag;
    new Gauge({
      name: 'discovery_activity_fold_lag_records',
      help: 'Activities acknowledged to the collection APIs and not yet folded into histories and aggregates, every tenant together. Past activityLog.foldLag.records for a tenant, its collection calls answer 429.',
      registers,
      collect() {
        this.set(foldLag.collect().records);
      },
    });
    new Gauge({
      name: 'discovery_activity_fold_lag_seconds',
      help: 'Age of the oldest activity acknowledged and not yet folded, or (several processes on one log) how far behind the other processes\' appends the last one folded here was. Past activityLog.foldLag.seconds, collection calls answer 429.',
      registers,
      collect() {
        this.set(foldLag.collect().seconds);
      },
    });
    new Gauge({
      name: 'discovery_search_learned_queries',
      help: 'Query keys (and browse selections) search learning holds votes for, every tenant together; at most 1,000 per tenant.',
      registers,
      collect() {
        this.set(learned.collect());
      },
    });
    this.modelTrainingSeconds = new Histogram({
      name: 'discovery_recommendation_model_training_seconds',
      help: 'Time to train a recommendation model and put it in place (on a worker thread; requests never wait for it).',
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers,
    });
    this.modelsLoaded = new Counter({
      name: 'discovery_recommendation_models_loaded_total',
      help: 'Recommendation models another process of a shared store trained and this one loaded instead of training them itself (one trainer per tenant holds the lease).',
      registers,
    });
  }

  /** Middleware registered before the routers: times every request and labels it with the route that answered. */
  middleware() {
    return async (ctx: { method: string; status: number; _matchedRoute?: unknown }, next: () => Promise<unknown>): Promise<void> => {
      const end = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched';
        const labels = { method: ctx.method.length <= 10 ? ctx.method : 'other', route, status: String(ctx.status) };
        this.requests.inc(labels);
        this.requestSeconds.observe(labels, Number(process.hrtime.bigint() - end) / 1e9);
      }
    };
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
