// Sends probe requests for bench/harness.ts `probe`, in its own process so that a stalled server loop
// cannot delay the sending: one sequential loop per target, a short pause between requests, until the
// parent says stop; then prints each target's latency figures as JSON. A stalled server shows as one
// request that took as long as the stall.
const targets = await new Promise((resolve) => process.once('message', resolve));
let running = true;
process.once('message', () => (running = false));

async function loop(target) {
  const samples = [];
  let failures = 0;
  while (running) {
    const started = performance.now();
    try {
      const res = await fetch(target.url, { method: target.method, headers: target.headers, body: target.body });
      await res.arrayBuffer();
      if (!res.ok) failures++;
    } catch {
      failures++;
    }
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, target.pauseMs));
  }
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  const round = (ms) => Math.round(ms * 10) / 10;
  return { name: target.name, count: samples.length, failures, p50Ms: round(at(0.5)), p99Ms: round(at(0.99)), maxMs: round(samples.at(-1) ?? 0) };
}

process.send('started');
const results = await Promise.all(targets.map(loop));
process.send(results, () => process.exit(0));
