/**
 * How far behind the shared log each serving process's fold is, per tenant, for the processes that only
 * take activities (`--ingest-only`, docs/scale-out.md): they fold nothing themselves, so they answer 429
 * once a serving process is further behind than `activityLog.foldLag.seconds` allows, and cannot outrun
 * the folds. Without an adapter there is no board (an ingest-only process needs Redis).
 *
 * Contract: `publish(tenant, owner, lagMs)` records this owner's lag now; `worst(tenant)` resolves with
 * the largest lag any owner published within the last `freshMs` (0 when none did; owners that stopped
 * publishing, such as a stopped process, drop out), or undefined while the board is out of reach.
 */
export interface FoldLagBoard {
  publish(tenant: string, owner: string, lagMs: number): Promise<void>;
  worst(tenant: string, freshMs: number): Promise<number | undefined>;
}
