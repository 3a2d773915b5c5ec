/** Health and discovery endpoints for operators and load balancers. */
import Router from '@koa/router';
import type { HealthResponse, ReadyResponse } from '@discovery-kit/protocol';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { VERSION } from '../../platform/version.js';
import { noStore } from '../http/no-store.js';

export function createHealthApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  router.use(noStore);
  const startedAt = deps.clock.now();
  router.get('/health', (ctx) => {
    const body: HealthResponse = {
      status: 'ok',
      version: VERSION,
      uptimeSeconds: Math.floor((deps.clock.now() - startedAt) / 1000),
      tenants: deps.registry.tenantList.length,
    };
    ctx.body = body;
  });
  // The app only receives requests once its indexes and aggregates are loaded (the companion answers
  // 503 until then), so reaching this route means ready. /health stays "the process is alive".
  router.get('/ready', (ctx) => {
    const body: ReadyResponse = { status: 'ready' };
    ctx.body = body;
  });
  return { name: 'health', mount: 'base', router, public: false };
}
