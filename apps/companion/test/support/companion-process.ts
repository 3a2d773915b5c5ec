/**
 * A companion server as its own process (`node --max-semi-space-size=64 --import tsx apps/companion/src/main.ts`), for the
 * scale-out test and bench: started with the given options and environment, resolved once its /ready
 * answers 200, with its output kept for the failure message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface CompanionProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** SIGTERM, as an operator's stop: the companion shuts down (and writes a profile it was asked for); SIGKILL after 60 s. */
  stop(): Promise<void>;
}

/**
 * `main`: a compiled companion to run on plain node (the benches compile one beside themselves,
 * scripts/build-bench.ts); by default the TypeScript sources under tsx.
 */
export async function startCompanionProcess(args: string[], env: Record<string, string>, readyWithinMs = 180_000, main?: string): Promise<CompanionProcess> {
  // Production's young generation (`npm start`, the container: docs/performance.md), so that tests and
  // benches see the garbage collection a deployment sees. COMPANION_NODE_FLAGS: extra flags for each
  // companion (say `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a bench's companions).
  const flags = ['--max-semi-space-size=64', ...(process.env.COMPANION_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
  const entry = main === undefined ? ['--import', 'tsx', join(ROOT, 'apps/companion/src/main.ts')] : [main];
  const child = spawn(process.execPath, [...flags, ...entry, '--port', '0', '--log-level', 'warn', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DEMO_ACTIVITIES: 'off', ...env },
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the companion exited (${code}):\n${text.slice(-3000)}`))));
  exited.catch(() => undefined);
  const listening = (async () => {
    for (;;) {
      const match = /listening on (http:\/\/\S+) /.exec(text);
      if (match !== null) return match[1]!;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const url = await Promise.race([listening, exited]);
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    const ready = await Promise.race([fetch(`${url}/ready`).then((r) => r.status, () => 0), exited]);
    if (ready === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the companion was not ready within ${readyWithinMs} ms:\n${text.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => text,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
