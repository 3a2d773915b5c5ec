/**
 * Experiments in the admin API (`/admin/experiments...`, docs/experiments.md): define a draft, start,
 * stop, read results, apply a variant to its surface. Changes need an editing role (or the console
 * session with its CSRF token); every one is audited.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import type { ServerDeps } from '../api-module.js';
import { jsonBody } from '../http/body.js';
import { adminScope } from './admin-auth.js';

export function experimentRoutes(router: Router, deps: ServerDeps, guard: Middleware): void {
  const { experiments } = deps.services;
  const body = jsonBody({ limit: deps.config.limits.bodyBytes });

  router.get('/experiments', guard, (ctx) => {
    ctx.body = { experiments: experiments.list(adminScope(deps, ctx)) } satisfies Wire.ExperimentListResponse;
  });
  router.get('/experiments/:experimentId', guard, (ctx) => {
    ctx.body = experiments.get(adminScope(deps, ctx), ctx.params.experimentId!) satisfies Wire.Experiment;
  });
  router.put('/experiments/:experimentId', guard, body, async (ctx) => {
    ctx.body = (await experiments.put(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.experimentId!, ctx.request.body)) satisfies Wire.Experiment;
  });
  router.delete('/experiments/:experimentId', guard, async (ctx) => {
    await experiments.remove(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.experimentId!);
    ctx.status = 204;
  });
  router.post('/experiments/:experimentId/start', guard, async (ctx) => {
    ctx.body = (await experiments.start(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.experimentId!)) satisfies Wire.Experiment;
  });
  router.post('/experiments/:experimentId/stop', guard, async (ctx) => {
    ctx.body = (await experiments.stop(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.experimentId!)) satisfies Wire.Experiment;
  });
  router.post('/experiments/:experimentId/apply', guard, body, async (ctx) => {
    const requested = (ctx.request.body as { variant?: unknown } | undefined)?.variant;
    ctx.body = (await experiments.apply(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.experimentId!, requested)) satisfies Wire.Experiment;
  });
  router.get('/experiments/:experimentId/results', guard, (ctx) => {
    ctx.body = experiments.results(adminScope(deps, ctx), ctx.params.experimentId!) satisfies Wire.ExperimentResults;
  });
}
