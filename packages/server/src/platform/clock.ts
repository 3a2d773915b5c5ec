/** Time, injectable so that tests can freeze it for anything that expires. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** One day in milliseconds: retention and day buckets count in UTC days. */
export const DAY_MS = 24 * 60 * 60 * 1000;

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start = Date.UTC(2026, 10, 21, 12, 0, 0)) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}
