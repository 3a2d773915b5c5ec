/**
 * The writes a document store has started and not finished, so that `flush()` can wait for every one
 * acknowledged so far, including those started while it waits. Failures are the writer's to report;
 * here a failed write only stops being pending.
 */
export class PendingWrites {
  private readonly pending = new Set<Promise<unknown>>();

  track(write: Promise<unknown>): void {
    const settled = write.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
