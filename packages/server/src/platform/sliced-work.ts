/**
 * Long work (an index build over a whole catalog) cut into slices that give the event loop back: the
 * work is a generator that yields after each small step, and the runner keeps stepping until a slice
 * has used its time, then waits for the next turn (setImmediate, after pending I/O), so requests of
 * every tenant are answered between slices.
 */

/** A slice's budget: short enough that a request waits a few milliseconds at most, long enough that switching costs little. */
export const SLICE_MS = 6;

/** Runs `work` to its end in slices of about `sliceMs`; resolves with its return value. */
export async function runInSlices<T>(work: Generator<unknown, T>, sliceMs = SLICE_MS): Promise<T> {
  for (;;) {
    const deadline = performance.now() + sliceMs;
    for (;;) {
      const step = work.next();
      if (step.done === true) return step.value;
      if (performance.now() >= deadline) break;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Runs `work` to its end at once, for callers that may block (tests, tools, the benchmark's build-alone figure). */
export function runAtOnce<T>(work: Generator<unknown, T>): T {
  for (;;) {
    const step = work.next();
    if (step.done === true) return step.value;
  }
}
