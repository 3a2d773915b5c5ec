/**
 * Progress of a long step (demo history, a feed import) for the person who started it: a bar
 * redrawn in place on a terminal, or a line every 10 % when stderr is a pipe or a log file.
 */
export interface Progress {
  /** Work done so far, out of the total given at the start. */
  update(done: number): void;
  /** The last line, with the summary. */
  finish(summary?: string): void;
}

export interface ProgressOptions {
  label: string;
  total: number;
  out?: NodeJS.WritableStream;
  /** Nothing is printed when false (tests, --quiet). */
  enabled?: boolean;
}

const BAR_WIDTH = 30;

export function createProgress(options: ProgressOptions): Progress {
  const out = options.out ?? process.stderr;
  const terminal = 'isTTY' in out && out.isTTY === true;
  const total = Math.max(options.total, 1);
  const started = performance.now();
  let lastShown = -1;
  const enabled = options.enabled !== false;
  const percent = (done: number) => Math.min(100, Math.floor((done / total) * 100));
  const count = (n: number) => n.toLocaleString('en-GB');

  return {
    update(done) {
      if (!enabled) return;
      const now = percent(done);
      if (terminal) {
        if (now === lastShown) return;
        lastShown = now;
        const filled = Math.round((now / 100) * BAR_WIDTH);
        out.write(`\r${options.label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(now).padStart(3)}% ${count(done)}/${count(options.total)}`);
        return;
      }
      const step = Math.floor(now / 10) * 10;
      if (step <= lastShown || step === 0) return;
      lastShown = step;
      out.write(`${options.label}: ${step}% (${count(done)} of ${count(options.total)})\n`);
    },
    finish(summary) {
      if (!enabled) return;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      out.write(`${terminal ? '\r\u001b[2K' : ''}${options.label}: done in ${seconds} s${summary === undefined ? '' : ` — ${summary}`}\n`);
    },
  };
}
