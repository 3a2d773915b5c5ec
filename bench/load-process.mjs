// Runs autocannon in its own process for bench/harness.ts `load`, so the load generator does not share
// the CPU thread of the server it measures (on a 2-core machine: one core each). Reads its settings as
// JSON on stdin and prints the figures as JSON on stdout.
import autocannon from 'autocannon';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { url, requests, seconds, connections } = JSON.parse(input);
// Each connection walks its own share of the list (autocannon would start every connection at the first
// request): with 32 connections a run reaches all of it rather than sending the first few bodies 32 times
// (new shoppers stay new, distinct queries distinct). autocannon builds every request of a client's list
// when it is set, keeping the bytes on the request object, so each client gets its own slice: a list of
// 30,000 bodies given whole to 32 clients would be built 32 times over before the run could start.
const per = Math.ceil(requests.length / connections);
const slices = Array.from({ length: connections }, (_, i) => requests.slice(i * per, (i + 1) * per));
let client = 0;
const setupClient = (c) => {
  const slice = slices[client++ % connections];
  if (slice.length > 0) c.setRequests(slice);
};
const result = await autocannon({ url, connections, duration: seconds, requests: requests.slice(0, 1), pipelining: 1, setupClient });
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  }),
);
