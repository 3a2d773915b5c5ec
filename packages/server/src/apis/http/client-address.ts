/**
 * The shopper's address behind reverse proxies. With `trustedProxies` = n (configuration), each of
 * the n proxies in front of the server appends the address it received from to `X-Forwarded-For`, so
 * the client is the n-th entry from the right; anything further left was written by the client and
 * is ignored (a forged header cannot pick another shopper's rate-limit bucket). With 0, the default,
 * the header is ignored and the socket's address is the client.
 *
 * Only the address is taken from the proxies: the Host and protocol headers they forward are not
 * trusted (Koa's `proxy` setting stays off), since links and token issuers come from `publicUrl`.
 */
import { isIP } from 'node:net';
import type { Context, Next } from 'koa';

export function forwardedClient(header: string | undefined, trustedProxies: number): string | undefined {
  if (trustedProxies === 0 || header === undefined || header.length > 4096) return undefined;
  const hops = header.split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (hops.length === 0) return undefined;
  const client = hops[Math.max(0, hops.length - trustedProxies)]!;
  return isIP(client) === 0 ? undefined : client;
}

export function clientAddress(trustedProxies: number) {
  return async function setClientAddress(ctx: Context, next: Next): Promise<void> {
    const client = forwardedClient(ctx.get('X-Forwarded-For') || undefined, trustedProxies);
    if (client !== undefined) ctx.request.ip = client;
    await next();
  };
}
