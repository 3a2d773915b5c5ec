// Runs autocannon in its own process for bench/harness.ts `load`, so the load generator does not share
// the CPU thread of the server it measures (on a 2-core machine: one core each). Reads its settings as
// JSON on stdin and prints the figures as JSON on stdout.
import autocannon from 'autocannon';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { url, requests, seconds, connections } = JSON.parse(input);
// Each connection starts at its own point of the list (autocannon would start every connection at the
// first request): with 32 connections the list is walked 32 ways at once, so a run reaches all of it
// rather than sending the first few bodies 32 times (new shoppers stay new, distinct queries distinct).
let client = 0;
const setupClient = (c) => {
  const start = Math.floor(((client++ % connections) * requests.length) / connections);
  c.setRequests([...requests.slice(start), ...requests.slice(0, start)]);
};
const result = await autocannon({ url, connections, duration: seconds, requests, pipelining: 1, setupClient });
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }),
);
