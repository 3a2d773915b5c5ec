/**
 * `GET /sdk/{file}`: the browser bundle built by `npm run build` (dist/sdk), so a shop adds one
 * script tag pointing at this server. Public with CORS, because `<script type="module">` fetches
 * in CORS mode. The URL carries no version, so answers are cached briefly and revalidated by ETag.
 */
import Router from '@koa/router';
import { HttpError, StaticDirectory, type ApiFactory } from '@discovery-kit/server';

export function createSdkApi(sdkDir: string): ApiFactory {
  return () => {
    const files = new StaticDirectory(sdkDir, { cacheControl: 'public, max-age=300, stale-while-revalidate=3600' });
    const router = new Router();
    router.get('/sdk/:file', async (ctx) => {
      const name = ctx.params.file!;
      if (await files.serve(ctx, name)) return;
      if (name === 'discovery.js') {
        throw new HttpError(404, 'not_found', 'The browser bundle is not built: run `npm run build` (npm run dev does it before starting).', { field: 'file' });
      }
      throw new HttpError(404, 'not_found', `No bundle file named "${name}".`, { field: 'file' });
    });
    return { name: 'sdk', mount: 'base', router, public: true };
  };
}
