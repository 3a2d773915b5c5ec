/**
 * The console (`/console/`) and the API reference page (`/docs/`): two small HTML pages and the
 * bundles `npm run build` writes to dist/console. Private: same-origin only, framed by nobody, and a
 * content security policy that allows scripts from this server alone.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ApiFactory } from '../index.js';
import { HttpError } from '../http/errors.js';
import { StaticDirectory } from '../http/static-files.js';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

function page(title: string, body: string, script: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<script type="module" src="${script}"></script>
</head>
<body>
${body}
</body>
</html>
`;
}

const CONSOLE_HTML = page('Discovery Kit console', '<dk-console></dk-console>', '/console/console.js');
const REFERENCE_HTML = page(
  'Discovery Kit API reference',
  `<style>body{font-family:system-ui,sans-serif;margin:0;color:#1d2330}#reference{display:flex;align-items:flex-start}
nav{flex:0 0 12rem;position:sticky;top:0;max-height:100vh;overflow-y:auto;padding:1rem;box-sizing:border-box;border-right:1px solid #c9ced8}nav ul{list-style:none;padding:0;margin:0}nav li{margin:.3rem 0}
main{flex:1 1 auto;min-width:0;padding:1rem;max-width:60rem;overflow-wrap:anywhere}label[for=filter]{display:block;font-weight:600;margin:.75rem 0 .25rem}#filter{font:inherit;padding:.35rem .5rem;width:min(100%,24rem);box-sizing:border-box}
@media (max-width:640px){#reference{display:block}nav{position:static;max-height:none;border-right:0;border-bottom:1px solid #c9ced8}nav ul{display:flex;flex-wrap:wrap;gap:.25rem .75rem}}
section.operation{border:1px solid #c9ced8;border-radius:6px;padding:.5rem 1rem;margin:.75rem 0}.method{font-weight:700;color:#1f5fbf}pre{background:#f4f6f9;padding:.5rem;overflow:auto}
table{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto}td,th{border-bottom:1px solid #c9ced8;padding:.2rem .5rem;text-align:left}</style>
<div id="reference"><main><h1>Discovery Kit API reference</h1><p>Loading the API document…</p></main></div>`,
  '/docs/reference.js',
);

function sendPage(ctx: Context, html: string): void {
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

/** Mounts the console and the reference page over the built files in `directory` (dist/console). */
export function createConsolePages(directory: string): ApiFactory {
  return () => {
    const files = new StaticDirectory(directory, { cacheControl: 'no-cache' });
    // Strict: "/console" and "/console/" are different routes (the first redirects to the second).
    const router = new Router({ strict: true });
    const asset = (name: string) => async (ctx: Context) => {
      ctx.set('X-Content-Type-Options', 'nosniff');
      if (await files.serve(ctx, name)) return;
      throw new HttpError(404, 'not_found', `${name} is not built: run \`npm run build\`.`);
    };
    router.get('/console', (ctx) => ctx.redirect('/console/'));
    router.get('/console/', (ctx) => sendPage(ctx, CONSOLE_HTML));
    router.get('/console/console.js', asset('console.js'));
    router.get('/docs', (ctx) => ctx.redirect('/docs/'));
    router.get('/docs/', (ctx) => sendPage(ctx, REFERENCE_HTML));
    router.get('/docs/reference.js', asset('reference.js'));
    return { name: 'console', mount: 'base', router, public: false };
  };
}
