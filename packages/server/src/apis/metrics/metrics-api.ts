/** `GET /metrics`: Prometheus text for operators' scrapers (route patterns and counts only: no tenant or shopper data). */
import Router from '@koa/router';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { noStore } from '../http/no-store.js';

export function createMetricsApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  router.use(noStore);
  router.get('/metrics', async (ctx) => {
    const { contentType, body } = await deps.services.metrics.text();
    ctx.type = contentType;
    ctx.body = body;
  });
  return { name: 'metrics', mount: 'base', router, public: false };
}
