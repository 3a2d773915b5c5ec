/**
 * Several processes on one shared store (PostgreSQL) train a tenant's recommendation model once for
 * all: the process holding the tenant's trainer lease trains and stores the model, the others load it.
 * The lease is the document `tenants/<tenant>/model-trainer`: taken and renewed under the row's lock
 * (the store's `update` starts from the newest row), lasting LEASE_MS, renewed by its holder once half
 * of that has passed, handed back at shutdown. Its `trainedAt` says when the newest stored model was
 * trained: the other processes, told of each change, load that model when it is newer than theirs.
 */
import type { Logger } from '../../platform/logger.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';

/** How long a trainer lease lasts without renewal. */
export const LEASE_MS = 60_000;

interface LeaseData {
  owner: string;
  /** Date.now() past which another process may take the lease. */
  until: number;
  /** `trainedAt` of the newest stored model (0: none yet). */
  trainedAt: number;
}

export class TrainerLease {
  /** A take or renewal under way. */
  private pending: Promise<boolean> | undefined;

  private constructor(
    private readonly doc: StoredDocument<LeaseData>,
    private readonly me: string,
    private readonly logger: Logger,
  ) {}

  /**
   * The tenant's lease on a shared store; undefined for a store only this process uses (it always
   * trains). `onNewModel` is told when another process stored a model (its `trainedAt`).
   */
  static async open(store: DocumentStore, tenantId: string, me: string, logger: Logger, onNewModel: (trainedAt: number) => void): Promise<TrainerLease | undefined> {
    const doc = await store.document<LeaseData>(`tenants/${tenantId}/model-trainer`, () => ({ owner: '', until: 0, trainedAt: 0 }));
    if (doc.onChange === undefined) return undefined;
    doc.onChange(() => {
      if (doc.data.owner !== me) onNewModel(doc.data.trainedAt);
    });
    return new TrainerLease(doc, me, logger);
  }

  /** A take or renewal is under way. */
  get busy(): boolean {
    return this.pending !== undefined;
  }

  /** Training is this process's to do: it holds the lease, or nobody does any more. */
  mayTrain(now: number): boolean {
    return this.doc.data.owner === this.me || this.doc.data.until <= now;
  }

  /** This process holds the lease now. */
  held(now: number): boolean {
    return this.doc.data.owner === this.me && this.doc.data.until > now;
  }

  /** Warned that a model is due while no process holds the lease (once, until one holds it again). */
  private unattended = false;

  /** For a process that never trains (--no-training), asked while a model is due: warns once when nobody would train it. */
  warnIfUnattended(now: number, tenantId: string): void {
    const free = this.mayTrain(now);
    if (free && !this.unattended) this.logger.warn({ tenant: tenantId }, 'a recommendation model is due and no process trains it: this one runs with --no-training; start one without it');
    this.unattended = free;
  }

  /** This process holds the lease and half of it has passed. */
  dueForRenewal(now: number): boolean {
    return this.pending === undefined && this.doc.data.owner === this.me && this.doc.data.until - now < LEASE_MS / 2;
  }

  /** Takes or renews the lease under the document's lock; resolves with whether this process holds it. */
  take(): Promise<boolean> {
    const run = this.doc
      .update((data) => {
        const now = Date.now();
        if (data.owner !== this.me && data.until > now) return false;
        data.owner = this.me;
        data.until = now + LEASE_MS;
        return true;
      })
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'the recommendation trainer lease could not be written; trying again');
        return false;
      })
      .finally(() => (this.pending = undefined));
    this.pending = run;
    return run;
  }

  /** Tells the other processes, once the model's blobs are stored, that a model trained at `trainedAt` is there. */
  async stored(trainedAt: number): Promise<void> {
    await this.doc.update((data) => {
      data.trainedAt = Math.max(data.trainedAt, trainedAt);
      if (data.owner === this.me) data.until = Date.now() + LEASE_MS;
    });
  }

  /** Hands the lease back (shutdown), so that another process trains from its next poll rather than after LEASE_MS. */
  async release(): Promise<void> {
    await this.pending;
    if (this.doc.data.owner !== this.me) return;
    await this.doc
      .update((data) => {
        if (data.owner === this.me) data.until = 0;
      })
      .catch(() => undefined);
  }
}
