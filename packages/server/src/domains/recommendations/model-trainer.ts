/**
 * Keeps each tenant's item model current without ever blocking a request: trains on a worker thread
 * from a snapshot of the live interactions, swaps the new model in with one assignment, persists it
 * as a blob (a restart loads it instead of retraining) and decides when to train again:
 * after enough new activity (at once while data keeps pouring in, sooner once it quietens), on a
 * schedule, and after a catalog promotion. Between trainings a shopper's live row still meets the
 * current model's weights at query time, so their newest activity counts immediately.
 *
 * Several processes on one shared store (PostgreSQL) train once for all: the process holding a tenant's
 * trainer lease (trainer-lease.ts) trains and stores the model; the others load it from the blob store
 * when the lease says a newer one was stored, and take the lease over when its holder stops renewing it.
 */
import { randomBytes } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import type { DocumentStore } from '../../platform/store/document-store.js';
import { TrainerLease } from './trainer-lease.js';
import { startWorker } from '../../platform/worker-entry.js';
import { BusySignal } from '../../platform/cpu-pacing.js';
import type { RecommendationAggregates } from './activity-aggregates.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import type { EaseOptions, SparseWeights, TrainingTimings } from './ease.js';
import { ItemModel, type StoredModel } from './item-model.js';
import { readModelFiles, storeModelFiles } from './model-files.js';
import { LearnedRanker, rankerOfModel, type StoredRanker } from './learned-ranker.js';
import { DEFAULT_RANKER_OPTIONS, type ItemFacts, type RankerWeights } from './ranker-training.js';
import type { ItemStats } from './ranker-features.js';
import { lastErasure, markErasure, trainedBeforeErasure } from './erasure-mark.js';

export interface TrainerOptions extends EaseOptions {
  /** Retrain at least this often when anything new arrived (minutes). */
  retrainMinutes: number;
  /** Train and use the learned ranking stage of `personalized` (false: the blend alone). */
  learnedRanking: boolean;
}

export const DEFAULT_TRAINER_OPTIONS: TrainerOptions = { lambda: 300, maxItems: 2500, neighbours: 200, minShoppers: 2, retrainMinutes: 360, learnedRanking: true };

/** Family code and price of each item id (the tenant's catalog), for the ranker's training. */
export type DescribeItems = (tenantId: string, itemIds: readonly string[]) => Promise<ItemFacts>;

/** Fewer touches than this are not worth a model: co-occurrence and popularity serve alone. */
const MIN_TOUCHES = 20;
/**
 * While activities keep coming, retrain once they have grown by this share since the last model: a bulk
 * replay's model then misses only the last few percent (training takes seconds; requests never wait).
 */
const GROWTH_WHILE_BUSY = 0.1;
/**
 * While activities keep coming, a training waits this many times the last one's duration after it ended:
 * at most a fifth of a core for training (a first model, a forced one and a quiet one do not wait).
 */
const BUSY_GAP_FACTOR = 4;
/**
 * Whether activity that keeps coming calls for a new model: it grew by GROWTH_WHILE_BUSY since the
 * last one, and BUSY_GAP_FACTOR times the last training's duration has passed since it ended.
 */
export function grewWhileBusy(growth: number, trainedTouches: number, sinceLastEndedMs: number, lastTrainingMs: number): boolean {
  return growth >= GROWTH_WHILE_BUSY * trainedTouches && sinceLastEndedMs >= BUSY_GAP_FACTOR * lastTrainingMs;
}

/** Once activity has been quiet this long, any growth over QUIET_GROWTH retrains. */
const QUIET_MS = 2_000;
const QUIET_GROWTH = 0.01;
const POLL_MS = 500;
interface TenantModel {
  model: ItemModel | undefined;
  ranker: LearnedRanker | undefined;
  /** Touches counted when the current model's snapshot was taken. */
  trainedTouches: number;
  trainedAt: number;
  seenTouches: number;
  lastChangeAt: number;
  training: Promise<void> | undefined;
  /** Set by a promotion or an unusable model file: train at the next poll whatever the growth. */
  forced: string | undefined;
  /** Where the last training's time went (undefined before the first one of this process). */
  timings: TrainingTimings | undefined;
  /** Date.now() when this process's last training ended, and how long it took (ms). */
  lastTrainingEnded: number;
  lastTrainingMs: number;
  /** A shared store's trainer lease (undefined: this process is the only one, and always trains). */
  lease: TrainerLease | undefined;
  /** A stored model being loaded because another process trained it. */
  loading: Promise<void> | undefined;
}

export class ModelTrainer {
  private readonly aggregates: RecommendationAggregates;
  private readonly blobs: BlobStore;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly describe: DescribeItems | undefined;
  private readonly store: DocumentStore | undefined;
  /** False: this process never takes the trainer lease; it loads the models another process stores. */
  private readonly trains: boolean;
  /** This process, as a lease owner. */
  private readonly me = randomBytes(6).toString('base64url');
  readonly options: TrainerOptions;
  private readonly tenants = new Map<string, TenantModel>();
  private worker: Worker | undefined;
  /** How busy this (the serving) thread is, for the training thread to give way (platform/cpu-pacing.ts). */
  private readonly busy = new BusySignal();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Told of each finished training (seconds on the clock of this process), for the operator's metrics. */
  private readonly trainedListeners: Array<(seconds: number) => void> = [];
  /** Told of each model another process trained and this one loaded. */
  private readonly loadedListeners: Array<() => void> = [];

  constructor(deps: { aggregates: RecommendationAggregates; blobs: BlobStore; logger: Logger; clock: Clock; options?: Partial<TrainerOptions>; describe?: DescribeItems; store?: DocumentStore; trains?: boolean }) {
    this.aggregates = deps.aggregates;
    this.store = deps.store;
    // Alone on its store (no lease: see poll) a process is its tenants' only trainer and trains whatever it was told.
    this.trains = deps.trains !== false;
    this.describe = deps.describe;
    this.blobs = deps.blobs;
    this.logger = deps.logger;
    this.clock = deps.clock;
    this.options = { ...DEFAULT_TRAINER_OPTIONS, ...deps.options };
  }

  /** Loads each tenant's model file (a missing or unusable one is retrained, with a log line), then starts watching for new data. */
  async start(tenantIds: readonly string[]): Promise<void> {
    for (const tenantId of tenantIds) {
      const state: TenantModel = { model: undefined, ranker: undefined, trainedTouches: 0, trainedAt: 0, seenTouches: 0, lastChangeAt: 0, training: undefined, forced: undefined, timings: undefined, lastTrainingEnded: 0, lastTrainingMs: 0, lease: undefined, loading: undefined };
      this.tenants.set(tenantId, state);
      // Another process stored a newer model: loaded here instead of trained again.
      state.lease = this.store === undefined ? undefined : await TrainerLease.open(this.store, tenantId, this.me, this.logger, (trainedAt) => {
        if (trainedAt > state.trainedAt && state.loading === undefined && !this.closed) state.loading = this.loadStored(tenantId, state).finally(() => (state.loading = undefined));
      });
      const started = performance.now();
      const { model: stored, ranker } = await readModelFiles(this.blobs, tenantId, this.options.learnedRanking);
      // One line for whatever is unusable (the item model, the ranker or both): both are trained again together.
      const { problem, ranker: paired } = 'problem' in stored ? { problem: stored.problem, ranker: undefined } : rankerOfModel(stored, ranker);
      if (problem !== undefined && this.aggregates.interactions(tenantId).touches >= MIN_TOUCHES) {
        this.logger.info({ tenant: tenantId, reason: problem }, 'recommendation model will be trained again');
        state.forced = problem;
      }
      if ('problem' in stored) continue;
      // A person erased after its data was taken (the erasing process and the log's notice may both be gone): trained again without them.
      if (problem === undefined && this.store !== undefined && trainedBeforeErasure(stored.info, await lastErasure(this.store, tenantId))) {
        this.logger.info({ tenant: tenantId, reason: 'a person was erased after it was trained' }, 'recommendation model will be trained again');
        state.forced = 'a person was erased after it was trained';
      }
      this.install(tenantId, state, stored, paired);
      this.logger.info({ tenant: tenantId, rows: state.model?.rows, ms: Math.round(performance.now() - started) }, 'recommendation model loaded');
    }
    if (!this.trains && this.store !== undefined) this.logger.info('this process trains no recommendation model (--no-training): it loads those another process stores');
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.timer.unref();
  }

  model(tenantId: string): ItemModel | undefined {
    return this.tenants.get(tenantId)?.model;
  }

  /** The learned ranking stage, once trained (never while `learnedRanking` is off). */
  ranker(tenantId: string): LearnedRanker | undefined {
    return this.tenants.get(tenantId)?.ranker;
  }

  /** Tenants this process trains the model of now: every one it is alone with, and those whose lease it holds. */
  trainingTenants(): number {
    return [...this.tenants.values()].filter((state) => state.lease === undefined || state.lease.held(Date.now())).length;
  }

  /** Where the last training of this process spent its time, for the bench and operators. */
  lastTimings(tenantId: string): TrainingTimings | undefined {
    return this.tenants.get(tenantId)?.timings;
  }

  /** Calls `listener` with the duration of every training that put a new model in place. */
  onTrained(listener: (seconds: number) => void): void {
    this.trainedListeners.push(listener);
  }

  /** Calls `listener` for every model another process trained that this one put in place. */
  onLoaded(listener: () => void): void {
    this.loadedListeners.push(listener);
  }

  /** Asks for a retraining at the next poll (a catalog promotion, an operator). */
  requestRetrain(tenantId: string, reason: string): void {
    const state = this.tenants.get(tenantId);
    if (state !== undefined) state.forced = reason;
  }

  /** A person was erased here: retrained without them, and the erasure's time kept for a trainer that starts later (erasure-mark.ts). */
  async personErased(tenantId: string): Promise<void> {
    this.requestRetrain(tenantId, 'profile erased');
    // The erasure itself is done: a mark not written is logged, and only a trainer started later misses it.
    await (this.store === undefined ? undefined : markErasure(this.store, tenantId, this.clock.now()).catch((error: unknown) => this.logger.error({ err: error, tenant: tenantId }, 'the erasure could not be marked for a trainer started later')));
  }

  /** Trains now (after the training under way, if any) unless nothing is new (`force`: even then); resolves when the new model is in place. */
  async trainNow(tenantId: string, options: { force?: boolean } = {}): Promise<void> {
    const state = this.tenants.get(tenantId);
    if (state === undefined) return;
    if (state.training !== undefined) await state.training;
    if (options.force === true || this.aggregates.interactions(tenantId).touches > state.trainedTouches || state.model === undefined) await this.train(tenantId, state, 'asked');
  }

  /** Resolves once no training runs and none is due by the growth rules: for evaluations and tests. */
  async settled(): Promise<void> {
    for (;;) {
      this.poll();
      const running = [...this.tenants.values()].map((s) => s.training).filter((t) => t !== undefined);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    // A training under way is abandoned rather than awaited: on a process's small CPU share a large one
    // takes tens of seconds, longer than an orchestrator's grace period for a stop. The model in place
    // (stored by an earlier training) is what the next start loads; the next trainer starts over.
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
    await Promise.allSettled([...this.tenants.values()].flatMap((s) => [s.training, s.loading]));
    for (const state of this.tenants.values()) await state.lease?.release();
    this.busy.stop();
  }

  private poll(): void {
    const now = Date.now();
    for (const [tenantId, state] of this.tenants) {
      const touches = this.aggregates.interactions(tenantId).touches;
      if (touches !== state.seenTouches) {
        state.seenTouches = touches;
        state.lastChangeAt = now;
      }
      if (state.lease?.dueForRenewal(now) === true && !this.closed) void state.lease.take();
      if (state.training !== undefined || state.lease?.busy === true || this.closed || touches < MIN_TOUCHES) continue;
      const reason = this.dueReason(state, touches, now);
      if (reason === undefined) continue;
      if (state.lease === undefined) void this.train(tenantId, state, reason);
      // Another process holds the lease: it trains, and this one loads what it stores.
      else if (!this.trains) state.lease.warnIfUnattended(now, tenantId);
      else if (state.lease.mayTrain(now)) {
        state.lease
          .take()
          .then((mine) => (mine && state.training === undefined && !this.closed ? this.train(tenantId, state, reason) : undefined))
          .catch(() => undefined);
      }
    }
  }

  /** Installs the model (and ranker) another process stored, when it is newer than the one in place. */
  private async loadStored(tenantId: string, state: TenantModel): Promise<void> {
    const { model: stored, ranker } = await readModelFiles(this.blobs, tenantId, this.options.learnedRanking);
    if ('problem' in stored || stored.info.trainedAt <= state.trainedAt || this.closed) return;
    this.install(tenantId, state, stored, rankerOfModel(stored, ranker).ranker);
    this.logger.info({ tenant: tenantId, rows: state.model?.rows, trainedAt: stored.info.trainedAt }, 'recommendation model loaded, as another process trained it');
    for (const listener of this.loadedListeners) listener();
  }

  private dueReason(state: TenantModel, touches: number, now: number): string | undefined {
    if (state.forced !== undefined) return state.forced;
    const growth = touches - state.trainedTouches;
    if (growth <= 0) return undefined;
    if (state.model === undefined) return 'first model';
    if (grewWhileBusy(growth, state.trainedTouches, now - state.lastTrainingEnded, state.lastTrainingMs)) return 'activity grew';
    if (now - state.lastChangeAt >= QUIET_MS && growth >= QUIET_GROWTH * state.trainedTouches) return 'new activity, now quiet';
    if (this.clock.now() - state.trainedAt >= this.options.retrainMinutes * 60_000) return 'schedule';
    return undefined;
  }

  private train(tenantId: string, state: TenantModel, reason: string): Promise<void> {
    state.forced = undefined;
    const started = Date.now();
    let pausedMs = 0;
    const run = this.runTraining(tenantId, state, reason)
      .then((paused) => void (pausedMs = paused))
      .finally(() => {
        state.training = undefined;
        state.lastTrainingEnded = Date.now();
        // Its working time: the sleeps that gave way to requests (platform/cpu-pacing.ts) already kept it to a small share.
        state.lastTrainingMs = Math.max(0, state.lastTrainingEnded - started - pausedMs);
      });
    state.training = run;
    return run;
  }

  /** One training, its model installed and stored; resolves to the time it gave way to requests (ms, 0 when it failed). */
  private async runTraining(tenantId: string, state: TenantModel, reason: string): Promise<number> {
    const interactions = this.aggregates.interactions(tenantId);
    const started = performance.now();
    const touches = interactions.touches;
    const purchases = interactions.purchases;
    const snapshotAt = this.clock.now();
    const snapshot = interactions.snapshot();
    try {
      const facts = this.options.learnedRanking ? await this.describeItems(tenantId, snapshot.itemIds) : undefined;
      const rankerRequest = facts === undefined ? undefined : { first: snapshot.first, facts, options: DEFAULT_RANKER_OPTIONS };
      const { weights, timings, ranker } = await this.trainOnWorker({ offsets: snapshot.offsets, items: snapshot.items, weights: snapshot.weights, itemCount: snapshot.itemIds.length }, rankerRequest);
      const trainingMs = Math.round(performance.now() - started);
      const trainedAt = this.clock.now();
      const storedRanker: StoredRanker | undefined = ranker?.weights === undefined ? undefined : { tenantId, trainedAt, weights: ranker.weights, itemIds: snapshot.itemIds, stats: ranker.stats };
      const stored: StoredModel = { info: { trainedAt, snapshotAt, touches, purchases, trainingMs, lambda: this.options.lambda, ...(rankerRequest && { ranker: storedRanker !== undefined }) }, itemIds: snapshot.itemIds, weights };
      if (this.closed) return 0;
      state.timings = timings;
      this.install(tenantId, state, stored, storedRanker);
      this.logger.info({ tenant: tenantId, reason, touches, rows: state.model?.rows, ranker: storedRanker?.weights.examples ?? 0, ms: trainingMs, ...timings }, 'recommendation model trained');
      for (const listener of this.trainedListeners) listener(trainingMs / 1000);
      await storeModelFiles(this.blobs, tenantId, stored, storedRanker);
      // Told after the blobs are stored: the other processes load them on this notice.
      await state.lease?.stored(trainedAt);
      return timings?.pausedMs ?? 0;
    } catch (error) {
      if (this.closed) return 0;
      // The previous model (or co-occurrence alone) keeps serving; the next poll tries again after more data.
      state.trainedTouches = touches;
      this.logger.error({ tenant: tenantId, err: error }, 'recommendation model training failed');
      return 0;
    }
  }

  private install(tenantId: string, state: TenantModel, stored: StoredModel, ranker: StoredRanker | undefined): void {
    const interactions = this.aggregates.interactions(tenantId);
    const numberOf = (id: string) => interactions.numberOf(id);
    state.model = new ItemModel(stored, interactions.itemIds.length, numberOf);
    state.ranker = ranker === undefined ? undefined : new LearnedRanker(ranker, interactions.itemIds.length, numberOf);
    state.trainedTouches = stored.info.touches;
    state.trainedAt = stored.info.trainedAt;
  }

  /** Family codes and prices of the snapshot's items from the tenant's catalog (none known without one). */
  private async describeItems(tenantId: string, itemIds: readonly string[]): Promise<ItemFacts> {
    if (this.describe !== undefined) return this.describe(tenantId, itemIds);
    return { families: new Int32Array(itemIds.length).fill(-1), prices: new Float32Array(itemIds.length) };
  }

  private trainOnWorker(
    rows: { offsets: Int32Array; items: Int32Array; weights: Float32Array; itemCount: number },
    ranker: { first: Int32Array; facts: ItemFacts; options: typeof DEFAULT_RANKER_OPTIONS } | undefined,
  ): Promise<{ weights: SparseWeights; timings: TrainingTimings | undefined; ranker: { weights: RankerWeights | undefined; stats: ItemStats } | undefined }> {
    if (this.closed) return Promise.reject(new Error('the trainer is closed'));
    const worker = (this.worker ??= this.startWorker());
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (message: { weights?: SparseWeights; timings?: TrainingTimings; ranker?: { ranker: RankerWeights | undefined; stats: ItemStats }; error?: string }) => {
        cleanup();
        const trained = message.ranker === undefined ? undefined : { weights: message.ranker.ranker, stats: message.ranker.stats };
        if (message.weights !== undefined) resolve({ weights: message.weights, timings: message.timings, ranker: trained });
        else reject(new Error(message.error ?? 'training failed'));
      };
      const onError = (error: Error) => {
        cleanup();
        this.worker = undefined;
        reject(error);
      };
      // Stopped (close() terminates it) or gone without an error: the training has no answer coming.
      const onExit = () => {
        cleanup();
        if (this.worker === worker) this.worker = undefined;
        reject(new Error('the training thread stopped'));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      const { lambda, maxItems, neighbours, minShoppers } = this.options;
      const transfer = [rows.offsets.buffer, rows.items.buffer, rows.weights.buffer, ...(ranker === undefined ? [] : [ranker.first.buffer, ranker.facts.families.buffer, ranker.facts.prices.buffer])] as ArrayBuffer[];
      worker.postMessage({ rows, options: { lambda, maxItems, neighbours, minShoppers }, ranker }, transfer);
    });
  }

  private startWorker(): Worker {
    // Compiled (production) or from TypeScript sources under tsx: platform/worker-entry.ts finds the entry.
    const worker = startWorker('model-worker', new URL('./model-worker.ts', import.meta.url), { workerData: { busySignal: this.busy.start().buffer } });
    worker.unref();
    return worker;
  }
}
