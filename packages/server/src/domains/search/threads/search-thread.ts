/**
 * A search thread (`searchThreads` in the configuration; search-threads.ts starts it): a replica of the
 * search indexes on a core of its own, answering POST and GET /search for the main thread, which keeps
 * the HTTP work, validation and everything else.
 *
 * It holds the same SearchService as the main thread, fed through a catalog of its own (`ThreadCatalog`)
 * with what the main thread sends: the configuration, each environment's active catalog (its items in
 * parts, then `activate`) and every change to it. An environment's messages are applied one after the
 * other: a change that arrives while its version is being built waits for the build, so none is lost.
 * After each, the thread reports how far it got (`applied`), and the main thread routes an environment's
 * searches here only while the thread has applied everything it was sent about it.
 */
import { monitorEventLoopDelay, performance, PerformanceObserver, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import type { LevelWithSilent } from 'pino';
import type { ActivationBuilder, ItemsChangedListener, StoredItem } from '../../catalog/types.js';
import { SearchService } from '../search-service.js';
import type { IndexedCatalog } from '../search-indexes.js';
import { ConfigRegistry } from '../../../platform/config/registry.js';
import { DomainError } from '../../../platform/domain-error.js';
import { createLogger } from '../../../platform/logger.js';
import { parseMask } from '../../../platform/response-mask.js';
import { AnswerBuffers, answerBody, JsonBytes } from '../response/json-bytes.js';
import { answerMetadata, MaskedTexts } from '../response/response-text.js';
import type { FromThread, ThreadFailure, ThreadSearch, ThreadStats, ToThread } from './search-thread-protocol.js';

/** The catalog as the main thread describes it: activations, changes, and the items of each active version. */
class ThreadCatalog implements IndexedCatalog {
  readonly builders: ActivationBuilder[] = [];
  readonly listeners: ItemsChangedListener[] = [];
  /** Each environment's active items by id (what `allItems` answers when a configuration change rebuilds). */
  readonly items = new Map<string, Map<string, StoredItem>>();
  readonly versions = new Map<string, { tenantId: string; environmentId: string; version: number }>();

  readonly catalogs = {
    active: async (tenantId: string, environmentId: string): Promise<{ version: number } | undefined> => {
      const known = this.versions.get(`${tenantId}\u0000${environmentId}`);
      return known === undefined ? undefined : { version: known.version };
    },
  };

  onActivate(builder: ActivationBuilder): void {
    this.builders.push(builder);
  }

  onItemsChanged(listener: ItemsChangedListener): void {
    this.listeners.push(listener);
  }

  onItemsChangedElsewhere(): void {
    // Other processes' writes reach the main thread, which sends the environment's catalog again.
  }

  async allItems(tenantId: string, environmentId: string): Promise<StoredItem[]> {
    return [...(this.items.get(`${tenantId}\u0000${environmentId}`)?.values() ?? [])];
  }
}

const port = parentPort;
if (port === null) throw new Error('search-thread.ts runs as a worker thread (search-threads.ts starts it)');
const logger = createLogger((workerData as { logLevel?: LevelWithSilent } | undefined)?.logLevel ?? 'info').child({ thread: 'search' });
const catalog = new ThreadCatalog();
const maskedTexts = new MaskedTexts();
const bytes = new JsonBytes();
const buffers = new AnswerBuffers();
let registry: ConfigRegistry | undefined;
let search: SearchService | undefined;
/** Items received for each environment since its last activation. */
const parts = new Map<string, StoredItem[]>();
/** Each environment's messages, applied one after the other. */
const chains = new Map<string, Promise<void>>();

/** The loop and collection figures `stats` reports, counted from the first ask. */
let loop: IntervalHistogram | undefined;
let gcMaxMs = 0;
let gcMs = 0;
let utilization: EventLoopUtilization | undefined;

function takeStats(): ThreadStats {
  if (loop === undefined) {
    loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        gcMs += entry.duration;
        gcMaxMs = Math.max(gcMaxMs, entry.duration);
      }
    }).observe({ entryTypes: ['gc'] });
  }
  const { heapUsed, external } = process.memoryUsage();
  const since = performance.eventLoopUtilization(utilization);
  utilization = performance.eventLoopUtilization();
  const stats = { heapBytes: heapUsed + external, loopMaxMs: loop.max / 1e6, gcMaxMs, gcMs, busyMs: since.active, utilization: since.utilization, answerBuffers: { made: buffers.made, free: buffers.size } };
  loop.reset();
  gcMaxMs = 0;
  gcMs = 0;
  return stats;
}

function send(message: FromThread): void {
  port!.postMessage(message);
}

function inTurn(key: string, work: () => Promise<void>): Promise<void> {
  const next = (chains.get(key) ?? Promise.resolve()).then(work).catch((error: unknown) => logger.error({ err: error }, 'search thread: applying a catalog message failed'));
  chains.set(key, next);
  return next;
}

async function answer(id: number, request: ThreadSearch): Promise<void> {
  try {
    if (registry === undefined || search === undefined) throw new Error('no configuration yet');
    const ref = registry.searchToken(request.token);
    const configuration = ref.token.configurations.find((c) => c.id === request.configurationId);
    if (configuration === undefined) throw new Error(`configuration ${request.configurationId} is not in this thread's copy`);
    const { tenantId, environmentId, sortBy, filter } = request;
    const waiting = search.whenReady({ tenantId, environmentId, configuration, sortBy, filter });
    if (waiting !== undefined) await waiting;
    const result = search.search({ ...request, configuration, disabled: new Set(request.disabled) });
    const mask = parseMask(request.maskText);
    const metadata = answerMetadata(result, request, request.head);
    const page = { items: result.items, fields: request.highlight, terms: result.highlight, mask, maskText: request.maskText, memo: maskedTexts };
    const { body, length, pooled } = answerBody(bytes, buffers, page, metadata, result.facets);
    const message: FromThread = {
      type: 'answer',
      id,
      answer: { body, length, pooled, thread: threadId, matched: result.matched, spelling: result.spelling, corrected: result.corrected, relaxed: result.relaxed },
    };
    // The body's buffer is handed over, and handed back once written when it is a pooled one.
    port!.postMessage(message, [body]);
  } catch (error) {
    const failure: ThreadFailure =
      error instanceof DomainError
        ? { kind: error.kind, message: error.message, field: error.field, code: error.code, issues: error.issues, detail: error.detail, retryAfterSeconds: error.retryAfterSeconds }
        : { unexpected: error instanceof Error ? error.message : String(error) };
    send({ type: 'failed', id, failure });
  }
}

function receive(message: ToThread): void {
  switch (message.type) {
    case 'config': {
      if (registry === undefined) {
        registry = new ConfigRegistry(message.config);
        search = new SearchService({ catalog, registry, logger });
        send({ type: 'config-applied', seq: message.seq });
        return;
      }
      registry.replace(message.config);
      // A configuration may now weigh a field an index lacks: rebuilt from the items kept here.
      const service = search!;
      const refreshed = [...catalog.versions].map(([key, { tenantId, environmentId }]) => inTurn(key, async () => void (await service.refreshFields(tenantId, environmentId))));
      void Promise.all(refreshed).then(() => send({ type: 'config-applied', seq: message.seq }));
      return;
    }
    case 'cache':
      if (search !== undefined) search.resultCacheSize = message.size;
      return;
    case 'items': {
      const list = parts.get(message.key);
      if (list === undefined) parts.set(message.key, message.items);
      else for (const item of message.items) list.push(item);
      return;
    }
    case 'activate': {
      const items = parts.get(message.key) ?? [];
      parts.delete(message.key);
      const { key, seq, tenantId, environmentId, version } = message;
      void inTurn(key, async () => {
        catalog.items.set(key, new Map(items.map((item) => [item.id, item])));
        catalog.versions.set(key, { tenantId, environmentId, version });
        await Promise.all(catalog.builders.map((build) => build(tenantId, environmentId, version, items)));
        send({ type: 'applied', key, seq, version: search?.activeVersion(tenantId, environmentId) });
      });
      return;
    }
    case 'changed': {
      const { key, seq, change } = message;
      void inTurn(key, async () => {
        const kept = catalog.items.get(key);
        if (kept !== undefined && catalog.versions.get(key)?.version === change.scope.version) {
          for (const id of change.removedKeys) kept.delete(id);
          for (const item of change.upserted) kept.set(item.id, item);
        }
        for (const listener of catalog.listeners) listener(change);
        await search?.settled();
        send({ type: 'applied', key, seq, version: search?.activeVersion(change.scope.tenantId, change.scope.environmentId) });
      });
      return;
    }
    case 'search':
      void answer(message.id, message.request);
      return;
    case 'buffers':
      buffers.give(message.buffers);
      return;
    case 'stats': {
      // Live data only where collections can be asked for (the bench sets --expose-gc for every isolate).
      if (message.collect) (globalThis as { gc?: () => void }).gc?.();
      send({ type: 'stats', stats: takeStats() });
      return;
    }
  }
}

port.on('message', receive);
