/**
 * When the collection APIs answer 429 (`activityLog.foldLag`): while this process's own fold is further
 * behind than allowed, and, on a process that only takes activities (`--ingest-only`, which folds
 * nothing), while any serving process says on the shared board (fold-lag-board.ts) that its fold is.
 * Serving processes publish their lag there each half second; an ingest-only process reads the board as
 * often, so a refusal waits on no network call. Asked before anything is stored: a refusal changes nothing.
 */
import { DomainError } from '../../platform/domain-error.js';
import type { FoldLagBoard } from '../../platform/shared-state/fold-lag-board.js';
import type { TenantActivities } from './tenant-activities.js';

const EVERY_MS = 500;
/** A serving process that has not published for this long (stopped) no longer holds the others back. */
const FRESH_MS = 5_000;

export interface FoldLagBound {
  records: number;
  seconds: number;
}

export class FoldLagGuard {
  private timer: NodeJS.Timeout | undefined;
  /** Per tenant, the worst lag serving processes published (ingest-only), ms. */
  private readonly published = new Map<string, number>();
  private running = false;

  constructor(
    private readonly deps: {
      bound: FoldLagBound;
      board: FoldLagBoard | undefined;
      /** This process folds nothing (it reads the board) rather than publishing its own lag to it. */
      ingestOnly: boolean;
      owner: string;
      now: () => number;
      tenants: () => Iterable<TenantActivities>;
    },
  ) {}

  /** Throws the 429 the tenant's state (and, ingest-only, the board) calls for. */
  refuse(state: TenantActivities): void {
    const bound = this.deps.bound;
    const waiting = state.foldLag().records;
    if (waiting > bound.records) {
      throw new DomainError('rate_limited', `This server is folding ${waiting} activities it already accepted; send these again in a moment.`, { retryAfterSeconds: 1 });
    }
    if (state.followLagMs > bound.seconds * 1000) {
      throw new DomainError('rate_limited', `This server is ${Math.round(state.followLagMs / 1000)} s behind the activities other processes accepted; send these again in a moment.`, { retryAfterSeconds: retryAfter(state.followLagMs, bound) });
    }
    const others = this.published.get(state.tenant) ?? 0;
    if (others > bound.seconds * 1000) {
      throw new DomainError('rate_limited', `The processes serving this shop are ${Math.round(others / 1000)} s behind the activities already accepted; send these again in a moment.`, { retryAfterSeconds: retryAfter(others, bound) });
    }
  }

  /** Starts publishing (serving, with a board) or reading (ingest-only) the board; nothing without one. */
  start(): void {
    if (this.deps.board === undefined) return;
    this.timer = setInterval(() => void this.tick(), EVERY_MS);
    this.timer.unref();
    void this.tick();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const board = this.deps.board!;
      for (const state of this.deps.tenants()) {
        if (!this.deps.ingestOnly) {
          const lag = state.foldLag();
          const waitingMs = lag.oldestReceivedAt === undefined ? 0 : Math.max(0, this.deps.now() - lag.oldestReceivedAt);
          await board.publish(state.tenant, this.deps.owner, Math.max(state.followLagMs, waitingMs));
        } else {
          // Out of reach: the last reading stands (Redis back, it is read again).
          const worst = await board.worst(state.tenant, FRESH_MS);
          if (worst !== undefined) this.published.set(state.tenant, worst);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

function retryAfter(lagMs: number, bound: FoldLagBound): number {
  return Math.max(1, Math.min(30, Math.ceil(lagMs / 1000 - bound.seconds)));
}
