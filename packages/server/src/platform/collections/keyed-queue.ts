/** Runs tasks one at a time per key, so that a batch validates and writes without another batch in between. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<R>(key: string, task: () => Promise<R>): Promise<R> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(task, task);
    const tail = current.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // Forget idle keys so that the map does not grow with every catalog ever touched.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return current;
  }
}
