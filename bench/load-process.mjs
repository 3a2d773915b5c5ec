// Runs autocannon in its own process for bench/harness.ts `load`, so the load generator does not share
// the CPU thread of the server it measures (on a 2-core machine: one core each). Reads its settings as
// JSON on stdin and prints the figures as JSON on stdout.
import autocannon from 'autocannon';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { url, requests, seconds, connections } = JSON.parse(input);
const result = await autocannon({ url, connections, duration: seconds, requests, pipelining: 1 });
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }),
);
