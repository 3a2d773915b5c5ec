/**
 * The activity collection API (`POST {collect_url}/{trackerKey}`): one activity or a batch, checked
 * whole before anything is stored, then logged durably. Public: storefront pages on any origin call
 * it, with `fetch` or with `navigator.sendBeacon` (a text/plain body).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ApiModule, ServerDeps } from '../../api-module.js';
import { clientKeyFor } from '../../activities/activity-record.js';
import { IMPRESSION_TYPE } from '../../activities/tenant-activities.js';
import type { NewActivity } from '../../activities/activity-service.js';
import { HttpError } from '../../http/errors.js';
import { jsonBody } from '../../http/body.js';
import { parseInput } from '../../http/validate.js';
import { collectSchemas, type CollectActivity } from './collect-schema.js';

export const COLLECT_BODY_LIMIT = 256 * 1024;

export function createCollectApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  const activities = deps.services.activities;

  router.post('/:trackerKey', jsonBody({ limit: COLLECT_BODY_LIMIT, textPlainAsJson: true }), async (ctx) => {
    const { tenant } = deps.registry.trackerKey(ctx.params.trackerKey!);
    const body: unknown = ctx.request.body;
    const batch = Array.isArray(body);
    const schemas = collectSchemas(tenant.identityRepositories);
    const parsed: CollectActivity[] = batch ? parseInput(schemas.batch, body) : [parseInput(schemas.single, body)];

    const idempotencyKey = idempotencyHeader(ctx);
    const inputs: NewActivity[] = [];
    for (const [index, activity] of parsed.entries()) {
      const { profileId, sessionId } = activity.user;
      const known = profileId !== undefined && activities.findProfile(tenant.id, { profileId }) !== undefined;
      // A profile id we never issued (a stale cookie) stands in as the session id, so its sends still share one profile.
      const { profile } = await activities.resolveProfile(tenant.id, {
        ...(known ? { profileId } : {}),
        identities: activity.user.identities,
        sessionId: sessionId ?? (known ? undefined : profileId),
      });
      inputs.push(toNewActivity(activity, profile.id, clientKeyFor(activity.id, idempotencyKey, index), deps.clock.now()));
    }
    await activities.recordActivities(tenant.id, inputs);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { profiles: {} };
  });

  return { name: 'collect', mount: 'collect', router, public: true };
}

export function idempotencyHeader(ctx: Context): string | undefined {
  const key = ctx.get('idempotency-key');
  if (key === '') return undefined;
  if (key.length > 200) throw new HttpError(400, 'invalid_parameter', 'The Idempotency-Key header is at most 200 characters.', { field: 'Idempotency-Key' });
  return key;
}

function toNewActivity(activity: CollectActivity, profileId: string, clientKey: string | undefined, now: number): NewActivity {
  const { product, page, pathToPage, ...targetRest } = activity.target;
  const { quantity, orderId, widgetId, price, currency, query, ...metadataRest } = activity.metadata ?? {};
  const details: Record<string, unknown> = {};
  if (Object.keys(targetRest).length > 0) details.target = targetRest;
  if (Object.keys(metadataRest).length > 0) details.metadata = metadataRest;
  if (activity.user.traits !== undefined) details.traits = activity.user.traits;
  if (activity.user.segments !== undefined) details.userSegments = activity.user.segments;
  // A view of a page that names a widget is the widget being seen (the elements send it on impression), not a page view.
  const impression = activity.action === 'view' && product === undefined && widgetId !== undefined;
  return {
    profileId,
    source: 'collect',
    verb: activity.action,
    type: product !== undefined ? 'product' : impression ? IMPRESSION_TYPE : 'page',
    itemId: impression ? widgetId : (product ?? page ?? pathToPage)!,
    timestamp: activity.timestamp === undefined ? now : Date.parse(activity.timestamp),
    ...(clientKey === undefined ? {} : { clientKey }),
    ...(price === undefined ? {} : { price }),
    ...(quantity === undefined ? {} : { quantity }),
    ...(currency === undefined ? {} : { currency }),
    ...(orderId === undefined ? {} : { orderId }),
    ...(activity.user.sessionId === undefined ? {} : { sessionId: activity.user.sessionId }),
    ...(widgetId === undefined ? {} : { widgetId }),
    ...(activity.sourceId === undefined ? {} : { sourceId: activity.sourceId }),
    ...(query === undefined || query === '' ? {} : { query }),
    ...(activity.segments === undefined ? {} : { segments: activity.segments }),
    ...(Object.keys(details).length > 0 ? { details } : {}),
  };
}
