/**
 * On a process that only takes activities (`--ingest-only`, docs/scale-out.md): every request but the
 * collection APIs' writes (and their CORS preflights), health and metrics is answered 421 `ingest_only`,
 * as this process folds no activity and would answer reads from empty state. The balancer in front
 * sends those to the serving companions.
 */
import type { Context, Next } from 'koa';
import { HttpError } from './errors.js';

/** The mount prefixes the allowed routes live under (`config.mounts`). */
export function ingestGate(mounts: { base: string; collect: string }): (ctx: Context, next: Next) => Promise<void> {
  const base = mounts.base.replace(/\/$/, '');
  const collect = mounts.collect.replace(/\/$/, '');
  const writes = [new RegExp(`^${escape(collect)}/[^/]+/?$`), new RegExp(`^${escape(base)}/tracker/[^/]+/(activity|identify)/?$`, 'i')];
  const probes = new Set([`${base}/health`, `${base}/ready`, `${base}/metrics`]);
  return async (ctx, next) => {
    const path = ctx.path;
    const allowed = ((ctx.method === 'POST' || ctx.method === 'OPTIONS') && writes.some((pattern) => pattern.test(path))) || (ctx.method === 'GET' && probes.has(path));
    if (!allowed) throw new HttpError(421, 'ingest_only', 'This process only takes activities (it runs with --ingest-only): send this request to a serving companion.');
    await next();
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
