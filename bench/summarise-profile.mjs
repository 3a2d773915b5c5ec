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
