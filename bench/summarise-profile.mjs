// Summarises a .cpuprofile (bench/profile-search.ts): self time per request, by file and by function.
import { readFileSync } from 'node:fs';
const [file, requests] = [process.argv[2], Number(process.argv[3])];
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const fn = new Map(); const files = new Map();
for (const [id, us] of self) {
  const n = byId.get(id); const cf = n.callFrame;
  const f = (cf.url || '(native)').replace(/^.*node_modules\//, 'nm/').replace(/^.*\/packages\//, '').replace('file://', '');
  const k = `${cf.functionName || '(anon)'} ${f}:${cf.lineNumber}`;
  fn.set(k, (fn.get(k) ?? 0) + us);
  const fk = f.startsWith('nm/') ? f.split('/').slice(0, f.startsWith('nm/@') ? 3 : 2).join('/') : f;
  files.set(fk, (files.get(fk) ?? 0) + us);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const per = (us) => (us / 1000 / requests).toFixed(3);
console.log('total ms/request', per(total));
console.log('--- by file');
for (const [k, v] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(per(v), k);
console.log('--- by function');
for (const [k, v] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(per(v), k);

// The same self time in the groups docs/performance.md reports.
const groups = [
  ['idle (waiting for the load generator)', (k) => k.startsWith('(idle)')],
  // The inspector serialising the profile when it stops: the profiler's own cost, not the server's.
  ['profiler (Profiler.stop)', (k) => k.startsWith('dispatch (native)')],
  ['garbage collection', (k) => k.startsWith('(garbage collector)')],
  ['socket writes (writev)', (k) => k.startsWith('writev ') || k.startsWith('writeUtf8String') || k.startsWith('writevGeneric')],
  ['engine: matching (matcher, query plan, relaxation, vocabulary, FlexSearch)', (k) => /search\/(?:[a-z]+\/)?(matcher|query-plan|relaxed-match|typo-vocabulary|analyzer|language)\.ts|nm\/flexsearch/.test(k)],
  ['engine: facets', (k) => /search\/(?:[a-z]+\/)?facets\.ts/.test(k)],
  ['engine: filter', (k) => /search\/(?:[a-z]+\/)?filter-(batch|evaluation)\.ts|filter-language/.test(k)],
  ['engine: ordering, page, product views', (k) => /search\/(?:[a-z]+\/)?(search-pipeline|ranking|sort-ranks|search-response|highlight)\.ts|catalog\/product-view/.test(k)],
  ['search API handler (input, url, metadata, body)', (k) => /apis\/search\/|search\/response\/(response-text|json-bytes)\.ts/.test(k)],
  ['request validation (zod)', (k) => /nm\/zod/.test(k)],
  ['query analytics (statistics, counts)', (k) => /query-analytics|query-statistics|search-analytics/.test(k)],
  ['our middleware (body, logging, metrics, CORS, rate limits)', (k) => /apis\/http\/|metrics\/|nm\/prom-client|nm\/pino|platform\/logger/.test(k)],
  ['Koa, router, Node HTTP and streams', (k) => /nm\/(koa|@koa|koa-compose|delegates|on-finished|ee-first|statuses|mime|type-is|accepts|negotiator|content-type|vary|encodeurl|escape-html|fresh|parseurl|depd|only|cache-content-type|http-errors|media-typer|destroy)|node:/.test(k)],
];
const grouped = new Map(groups.map(([name]) => [name, 0]));
let rest = 0;
for (const [k, v] of fn) {
  const group = groups.find(([, test]) => test(k));
  if (group === undefined) rest += v;
  else grouped.set(group[0], grouped.get(group[0]) + v);
}
console.log('--- groups (ms per request, share of busy time)');
const busy = total - (grouped.get(groups[0][0]) ?? 0) - (grouped.get(groups[1][0]) ?? 0);
for (const [name, v] of grouped) console.log(per(v), name === groups[0][0] || name === groups[1][0] ? '' : `${Math.round((100 * v) / busy)}%`, name);
console.log(per(rest), `${Math.round((100 * rest) / busy)}%`, 'other (microtasks, program)');
