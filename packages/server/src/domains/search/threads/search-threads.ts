/**
 * Search threads (`searchThreads` in the configuration, 0 by default): replicas of the search indexes
 * in worker threads (search-thread.ts), so that uncached searches use more than one core. The main
 * thread keeps the HTTP work: it reads and validates each request as before, then hands the search
 * itself (matching, filters, facets, ordering, the page's JSON) to a thread, and writes its answer.
 *
 * Each thread is sent the configuration, every environment's active catalog (its items in parts of a
 * few milliseconds each, so the main thread never stalls on a copy) and every change to it, in order.
 * A search goes to a thread only while that thread has applied everything it was sent about the
 * environment and holds the same catalog version as the main thread's index; otherwise (a promotion
 * or a write still on its way, a thread starting or gone) the main thread answers it as it always did.
 * A refusal from a thread (a malformed filter, too many new sort orders) is thrown again here, so the
 * answer is the one the main thread would give; any other failure is answered by the main thread.
 *
 * The cost is memory: each thread holds a copy of every index (docs/operations.md).
 */
import type { Worker } from 'node:worker_threads';
import type { CatalogService } from '../../catalog/catalog-service.js';
import type { ItemsChanged, StoredItem } from '../../catalog/types.js';
import type { SearchService } from '../search-service.js';
import type { ConfigRegistry } from '../../../platform/config/registry.js';
import { DomainError } from '../../../platform/domain-error.js';
import type { Logger } from '../../../platform/logger.js';
import { startWorker } from '../../../platform/worker-entry.js';
import { environmentKey, type FromThread, type ThreadAnswer, type ThreadSearch, type ThreadStats, type ToThread } from './search-thread-protocol.js';

/** A search a thread has not answered after this long is answered by the main thread. */
const ANSWER_TIMEOUT_MS = 15_000;
/** How often searches past that are looked for. */
const SWEEP_MS = 1_000;
/** A catalog is sent in parts of this many items, the main thread yielding after each few milliseconds of copying. */
const ITEMS_PER_PART = 500;
const PART_SLICE_MS = 4;
/** A thread that stopped is started again after this long, doubling up to a minute while it keeps stopping. */
const RESTART_MS = 1_000;
const RESTART_MAX_MS = 60_000;

interface Replica {
  worker: Worker;
  alive: boolean;
  configSent: number;
  configApplied: number;
  /** Per environment: the sequence number of the last message sent, and what the thread reported applied. */
  sent: Map<string, number>;
  applied: Map<string, { seq: number; version: number | undefined }>;
  /** Searches sent and not answered yet, in the order sent, each with the time past which the main thread answers it. */
  pending: Map<number, { resolve: (answer: ThreadAnswer) => void; reject: (error: Error) => void; deadline: number }>;
  /** Answer buffers whose responses are written, handed back together at the end of the loop's turn (`release`). */
  returning: ArrayBuffer[];
}

/** One environment's outgoing messages, sent in order (a catalog's parts take several turns). */
interface Outbox {
  tenantId: string;
  environmentId: string;
  /** The catalog version last sent (changes to other versions do not concern search). */
  version: number | undefined;
  /** A resend after another process's writes is queued and has not started reading yet. */
  resendQueued: boolean;
  tasks: (() => Promise<void>)[];
  running: boolean;
}

export interface SearchThreadsDeps {
  count: number;
  catalog: CatalogService;
  registry: ConfigRegistry;
  search: SearchService;
  logger: Logger;
  /** Each search routed: answered by a thread, or left to the main thread (metrics). */
  onRouted?: (by: 'thread' | 'main') => void;
}

export class SearchThreads {
  private readonly replicas: Replica[] = [];
  private readonly outboxes = new Map<string, Outbox>();
  private nextId = 0;
  private next = 0;
  private closed = false;
  private restartMs = RESTART_MS;
  /** The once-a-second look for searches not answered in time, started by the first search. */
  private sweeping: NodeJS.Timeout | undefined;
  private cacheSize: number | undefined;
  /** Searches answered by a thread, and left to the main thread (no thread in step, or the thread failed). */
  readonly counts = { threads: 0, main: 0 };
  /** Routes nothing to the threads while set (the bench measures the main thread alone this way). */
  paused = false;

  constructor(private readonly deps: SearchThreadsDeps) {
    deps.catalog.onActivate(async (tenantId, environmentId, version, items) => this.sendCatalog(tenantId, environmentId, version, items));
    deps.catalog.onItemsChanged((change) => this.sendChange(change));
    // Another process wrote to an active catalog: the main thread's index is rebuilt from the store, and
    // so is each thread's. The resend is queued at once, so the threads stop answering for the
    // environment now (their copy is stale) rather than when the store is read again.
    deps.catalog.onItemsChangedElsewhere((scope) => {
      if (scope.api !== 'catalog' || this.closed) return;
      const outbox = this.outboxes.get(environmentKey(scope.tenantId, scope.environmentId));
      if (outbox === undefined || outbox.version !== scope.version || outbox.resendQueued) return;
      outbox.resendQueued = true;
      this.enqueue(outbox, async () => {
        // A burst of notices is one resend: the main thread rebuilds after 200 ms of them, this after 250.
        await new Promise((resolve) => setTimeout(resolve, 250));
        outbox.resendQueued = false;
        if (outbox.version === scope.version) await this.readAndSend(outbox, scope.version, this.replicas);
      });
    });
    deps.registry.onReplace(() => {
      for (const replica of this.replicas) this.sendConfig(replica);
    });
  }

  /** Starts the threads and sends each the configuration and every active catalog. */
  async start(): Promise<void> {
    for (let i = 0; i < this.deps.count; i++) this.replicas.push(this.startReplica());
    for (const tenant of this.deps.registry.tenantList) {
      for (const environment of tenant.environments) {
        const active = await this.deps.catalog.catalogs.active(tenant.id, environment.id);
        if (active !== undefined) this.resend(tenant.id, environment.id, active.version);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeping);
    await Promise.all(this.replicas.map((replica) => replica.worker.terminate()));
  }

  /** Sets the result cache size of every thread's search service (the bench turns caches off). */
  setResultCacheSize(size: number): void {
    this.cacheSize = size;
    for (const replica of this.replicas) if (replica.alive) this.post(replica, { type: 'cache', size });
  }

  /**
   * The search answered by a thread in step with this thread's index for the environment, or undefined
   * when none is (the caller answers it itself). Rejects with the DomainError the search raised (a
   * refusal to pass on as it is) or another error (the thread failed: the caller answers it itself).
   */
  answer(request: ThreadSearch): Promise<ThreadAnswer> | undefined {
    if (this.paused || this.replicas.length === 0) return undefined;
    const replica = this.inStep(request.tenantId, request.environmentId);
    if (replica === undefined) {
      this.routed('main');
      return undefined;
    }
    const id = this.nextId++;
    return new Promise<ThreadAnswer>((resolve, reject) => {
      // No timer per search: `sweep` rejects the searches past their deadline once a second.
      replica.pending.set(id, { resolve, reject, deadline: performance.now() + ANSWER_TIMEOUT_MS });
      this.sweeping ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
      this.post(replica, { type: 'search', id, request });
    });
  }

  /** Rejects the searches a thread has not answered in time (the caller then answers them itself). */
  private sweep(): void {
    const now = performance.now();
    for (const replica of this.replicas) {
      // In the order sent: the first search still in time ends the look.
      for (const [id, waiting] of replica.pending) {
        if (waiting.deadline > now) break;
        replica.pending.delete(id);
        waiting.reject(new Error('the search thread did not answer in time'));
      }
    }
  }

  /**
   * Hands an answer's pooled buffer (`ThreadAnswer.pooled`) back to the thread that wrote it, once its
   * response is written (the socket holds no part of it any more). The buffers of one turn of the event
   * loop go back in one message. A buffer never released (a connection closed mid-answer) is collected.
   */
  release(answer: Pick<ThreadAnswer, 'body' | 'pooled' | 'thread'>): void {
    if (!answer.pooled) return;
    const replica = this.replicas.find((r) => r.alive && r.worker.threadId === answer.thread);
    if (replica === undefined || replica.returning.push(answer.body) > 1) return;
    setImmediate(() => {
      const buffers = replica.returning;
      replica.returning = [];
      if (replica.alive) replica.worker.postMessage({ type: 'buffers', buffers } satisfies ToThread, buffers);
    });
  }

  /**
   * Each live thread's figures (`ThreadStats`: heap, and since the previous ask its loop's longest hold
   * and its collections); `collect` runs a full collection first where one can be asked for (the bench).
   */
  stats(collect = false): Promise<ThreadStats[]> {
    return Promise.all(
      this.replicas
        .filter((replica) => replica.alive)
        .map(
          (replica) =>
            new Promise<ThreadStats>((resolve) => {
              const listen = (message: FromThread) => {
                if (message.type !== 'stats') return;
                replica.worker.off('message', listen);
                resolve(message.stats);
              };
              replica.worker.on('message', listen);
              this.post(replica, { type: 'stats', collect });
            }),
        ),
    );
  }

  /** Whether some thread is in step with the main thread's index for the environment (tests, the bench). */
  inStepFor(tenantId: string, environmentId: string): boolean {
    return this.inStep(tenantId, environmentId) !== undefined;
  }

  private inStep(tenantId: string, environmentId: string): Replica | undefined {
    const key = environmentKey(tenantId, environmentId);
    const outbox = this.outboxes.get(key);
    if (outbox === undefined || outbox.running || outbox.tasks.length > 0) return undefined;
    const version = this.deps.search.activeVersion(tenantId, environmentId);
    if (version === undefined) return undefined;
    for (let tries = 0; tries < this.replicas.length; tries++) {
      const replica = this.replicas[this.next++ % this.replicas.length]!;
      if (!replica.alive || replica.configApplied !== replica.configSent) continue;
      const applied = replica.applied.get(key);
      if (applied !== undefined && applied.seq === replica.sent.get(key) && applied.version === version) return replica;
    }
    return undefined;
  }

  private startReplica(): Replica {
    const worker = startWorker('search-thread', new URL('./search-thread.ts', import.meta.url), { workerData: { logLevel: this.deps.logger.level } });
    const replica: Replica = { worker, alive: true, configSent: 0, configApplied: 0, sent: new Map(), applied: new Map(), pending: new Map(), returning: [] };
    worker.on('message', (message: FromThread) => this.receive(replica, message));
    worker.on('error', (error) => this.deps.logger.error({ err: error }, 'search thread failed'));
    worker.on('exit', (code) => this.stopped(replica, code));
    this.sendConfig(replica);
    if (this.cacheSize !== undefined) this.post(replica, { type: 'cache', size: this.cacheSize });
    return replica;
  }

  private stopped(replica: Replica, code: number): void {
    replica.alive = false;
    for (const { reject } of replica.pending.values()) {
      reject(new Error(`the search thread stopped (exit code ${code})`));
    }
    replica.pending.clear();
    if (this.closed) return;
    this.deps.logger.warn({ code, restartInMs: this.restartMs }, 'search thread stopped: the main thread answers its searches until it is back');
    const timer = setTimeout(() => {
      const at = this.replicas.indexOf(replica);
      if (this.closed || at < 0) return;
      const fresh = this.startReplica();
      this.replicas[at] = fresh;
      for (const outbox of this.outboxes.values()) {
        if (outbox.version !== undefined) this.enqueue(outbox, () => this.readAndSend(outbox, outbox.version!, [fresh]));
      }
    }, this.restartMs);
    timer.unref();
    this.restartMs = Math.min(RESTART_MAX_MS, this.restartMs * 2);
  }

  private receive(replica: Replica, message: FromThread): void {
    switch (message.type) {
      case 'config-applied':
        replica.configApplied = message.seq;
        return;
      case 'applied': {
        const before = replica.applied.get(message.key)?.version;
        replica.applied.set(message.key, { seq: message.seq, version: message.version });
        if (message.version !== undefined && message.version !== before) {
          const [tenantId, environmentId] = message.key.split('\u0000');
          this.deps.logger.info({ tenantId, environmentId, version: message.version }, 'search thread holds the catalog');
        }
        // A thread in step again is trusted again: its next stop waits the shortest time.
        this.restartMs = RESTART_MS;
        return;
      }
      case 'stats':
        return;
      case 'answer':
      case 'failed': {
        const waiting = replica.pending.get(message.id);
        if (waiting === undefined) return;
        replica.pending.delete(message.id);
        if (message.type === 'answer') {
          this.routed('thread');
          waiting.resolve(message.answer);
          return;
        }
        const { failure } = message;
        if ('unexpected' in failure) {
          this.routed('main');
          waiting.reject(new Error(failure.unexpected));
          return;
        }
        this.routed('thread');
        const { kind, message: text, ...options } = failure;
        waiting.reject(new DomainError(kind, text, options));
        return;
      }
    }
  }

  private routed(by: 'thread' | 'main'): void {
    if (by === 'thread') this.counts.threads++;
    else this.counts.main++;
    this.deps.onRouted?.(by);
  }

  private post(replica: Replica, message: ToThread): void {
    if (replica.alive) replica.worker.postMessage(message);
  }

  private sendConfig(replica: Replica): void {
    replica.configSent++;
    this.post(replica, { type: 'config', seq: replica.configSent, config: this.deps.registry.config });
  }

  private outbox(tenantId: string, environmentId: string): Outbox {
    const key = environmentKey(tenantId, environmentId);
    let outbox = this.outboxes.get(key);
    if (outbox === undefined) this.outboxes.set(key, (outbox = { tenantId, environmentId, version: undefined, resendQueued: false, tasks: [], running: false }));
    return outbox;
  }

  private enqueue(outbox: Outbox, task: () => Promise<void>): void {
    outbox.tasks.push(task);
    if (outbox.running) return;
    outbox.running = true;
    void (async () => {
      try {
        for (let next = outbox.tasks.shift(); next !== undefined; next = outbox.tasks.shift()) {
          await next().catch((error: unknown) => this.deps.logger.error({ err: error, tenantId: outbox.tenantId, environmentId: outbox.environmentId }, 'sending a catalog to the search threads failed'));
        }
      } finally {
        outbox.running = false;
      }
    })();
  }

  /** A promoted catalog (or one built again) goes to every thread, after what was queued before it. */
  private sendCatalog(tenantId: string, environmentId: string, version: number, items: readonly StoredItem[]): void {
    if (this.closed) return;
    const outbox = this.outbox(tenantId, environmentId);
    outbox.version = version;
    this.enqueue(outbox, () => this.sendItems(outbox, version, items, this.replicas));
  }

  /** The environment's active catalog read from the store and sent (start, a thread back, another process's writes). */
  private resend(tenantId: string, environmentId: string, version: number): void {
    if (this.closed) return;
    const outbox = this.outbox(tenantId, environmentId);
    outbox.version = version;
    this.enqueue(outbox, () => this.readAndSend(outbox, version, this.replicas));
  }

  private async readAndSend(outbox: Outbox, version: number, replicas: readonly Replica[]): Promise<void> {
    // Changes made while the store is read are queued behind this task and sent after the items: applied twice at worst.
    const items = await this.deps.catalog.allItems(outbox.tenantId, outbox.environmentId, version);
    await this.sendItems(outbox, version, items, replicas);
  }

  private async sendItems(outbox: Outbox, version: number, items: readonly StoredItem[], replicas: readonly Replica[]): Promise<void> {
    const key = environmentKey(outbox.tenantId, outbox.environmentId);
    let sliceStart = performance.now();
    for (let start = 0; start < items.length; start += ITEMS_PER_PART) {
      const part = items.slice(start, start + ITEMS_PER_PART) as StoredItem[];
      for (const replica of replicas) this.post(replica, { type: 'items', key, items: part });
      if (performance.now() - sliceStart > PART_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    for (const replica of replicas) {
      const seq = (replica.sent.get(key) ?? 0) + 1;
      replica.sent.set(key, seq);
      this.post(replica, { type: 'activate', key, seq, tenantId: outbox.tenantId, environmentId: outbox.environmentId, version });
    }
  }

  private sendChange(change: ItemsChanged): void {
    const { scope } = change;
    if (this.closed || scope.api !== 'catalog') return;
    const outbox = this.outboxes.get(environmentKey(scope.tenantId, scope.environmentId));
    // Only the active catalog's changes concern search (a catalog being loaded before its promotion does not).
    if (outbox === undefined || outbox.version !== scope.version) return;
    const send = (): void => {
      const key = environmentKey(scope.tenantId, scope.environmentId);
      for (const replica of this.replicas) {
        const seq = (replica.sent.get(key) ?? 0) + 1;
        replica.sent.set(key, seq);
        this.post(replica, { type: 'changed', key, seq, change });
      }
    };
    if (outbox.running || outbox.tasks.length > 0) this.enqueue(outbox, async () => send());
    else send();
  }
}
