import Koa from 'koa';
import { load } from './harness.js';
const app = new Koa();
const depth = Number(process.env.DEPTH ?? 6);
for (let i = 0; i < depth; i++) app.use(async (ctx, next) => { await next(); });
const body = Buffer.alloc(8500, 97);
app.use(async (ctx) => {
  let text = ''; for await (const c of ctx.req) text += c;
  const parsed = JSON.parse(text);
  if (process.env.DELAY) await new Promise((r) => setImmediate(r));
  ctx.type = 'application/json'; ctx.body = process.env.STR ? `{"q":${JSON.stringify(parsed.query)},"x":"${'a'.repeat(8400)}"}` : body;
});
const server = app.listen(0);
const url = `http://127.0.0.1:${(server.address() as any).port}`;
const req = [{ method: 'POST' as const, path: '/', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'tok', query: 'dolly girl', options: { facets: [{ id: 'color', values: ['red', 'blue'] }], filter: 'in_stock = 1 AND price < 4000' } }) }];
const big: unknown[] = []; for (let i = 0; i < 2e6; i++) big.push({ i, s: `x${i}` }); // an old generation of some size
await load(url, req, 2, 50);
const r = await load(url, req, 6, 50);
console.log(JSON.stringify(r), big.length);
server.close(); process.exit(0);
