/**
 * `Cache-Control: no-store` for answers that depend on the caller's credentials or on data every write
 * changes (tokens, profiles, admin resources, recommendations): no browser or shared cache may keep them.
 * Set before the handler runs, so its refusals say it too.
 */
import type { Context, Next } from 'koa';

export async function noStore(ctx: Context, next: Next): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  await next();
}
