/** `GET /openapi.json`: the OpenAPI 3.1 document of everything this server mounts (built once, on first request, when every module is mounted). */
import Router from '@koa/router';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { buildOpenApiDocument } from './openapi-document.js';

export function createOpenApiApi(mounted: () => readonly ApiModule[]) {
  return (deps: ServerDeps): ApiModule => {
    const router = new Router();
    let text: string | undefined;
    router.get('/openapi.json', (ctx) => {
      text ??= JSON.stringify(buildOpenApiDocument(mounted(), deps.config));
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'application/json';
      ctx.body = text;
    });
    return { name: 'openapi', mount: 'base', router, public: false };
  };
}
