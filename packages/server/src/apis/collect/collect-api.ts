/**
 * The activity collection API (`POST {collect_url}/{trackerKey}`): one activity or a batch, checked
 * whole before anything is stored, then logged durably. Public: storefront pages on any origin call
 * it, with `fetch` or with `navigator.sendBeacon` (a text/plain body).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { CollectResponse } from '@discovery-kit/protocol';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { clientKeyFor, UNATTRIBUTED } from '../../domains/tracking/activity-record.js';
import { IMPRESSION_TYPE } from '../../domains/tracking/tenant-activities.js';
import type { NewActivity } from '../../domains/tracking/activity-service.js';
import { newActivity } from '../../domains/tracking/new-activity.js';
import { HttpError } from '../http/errors.js';
import { jsonBody } from '../http/body.js';
import { parseInput } from '../http/validate.js';
import { collectActivitySchema, collectBatchSchema, type CollectActivity } from './collect-schema.js';
import { attributeUser } from './collect-user.js';
import { noStore } from '../http/no-store.js';

export const COLLECT_BODY_LIMIT = 256 * 1024;

export function createCollectApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  router.use(noStore);
  const activities = deps.services.activities;

  const { limits } = deps.services;
  router.post('/:trackerKey', limits.byAddress, limits.byKey((ctx) => ctx.params.trackerKey), jsonBody({ limit: COLLECT_BODY_LIMIT, textPlainAsJson: true }), async (ctx) => {
    const { tenant } = deps.registry.trackerKey(ctx.params.trackerKey!);
    const body: unknown = ctx.request.body;
    const batch = Array.isArray(body);
    const parsed: CollectActivity[] = batch ? parseInput(collectBatchSchema, body) : [parseInput(collectActivitySchema, body)];
    // Before any profile is made: a refusal changes nothing.
    activities.refuseWhileBehind(tenant.id);

    const idempotencyKey = idempotencyHeader(ctx);
    const inputs: NewActivity[] = [];
    for (const [index, activity] of parsed.entries()) {
      const { claims, unlinked } = attributeUser(activity.user, tenant.identityRepositories, (profileId) => activities.findProfile(tenant.id, { profileId }) !== undefined);
      const profile = claims === undefined ? undefined : (await activities.resolveProfile(tenant.id, claims)).profile;
      // Recorded under the profile id it was sent with, when it named one (see the older tracker's activity).
      const attribution = { profileId: claims?.profileId ?? profile?.id ?? UNATTRIBUTED, sessionId: claims?.sessionId, profileSegments: profile?.segments, unlinked };
      inputs.push(toNewActivity(activity, attribution, clientKeyFor(activity.id, idempotencyKey, index), deps.clock.now()));
    }
    await activities.recordActivities(tenant.id, inputs, { address: ctx.ip }, { foldAfterAnswer: true });
    const answer: CollectResponse = { profiles: {} };
    ctx.body = answer;
  });

  return { name: 'collect', mount: 'collect', router, public: true };
}

export function idempotencyHeader(ctx: Context): string | undefined {
  const key = ctx.get('idempotency-key');
  if (key === '') return undefined;
  if (key.length > 200) throw new HttpError(400, 'invalid_parameter', 'The Idempotency-Key header is at most 200 characters.', { field: 'Idempotency-Key' });
  return key;
}

interface Attribution {
  profileId: string;
  sessionId: string | undefined;
  profileSegments: Record<string, unknown> | undefined;
  unlinked: Record<string, string>;
}

function toNewActivity(activity: CollectActivity, who: Attribution, clientKey: string | undefined, now: number): NewActivity {
  const { product, page, pathToPage, ...targetRest } = activity.target;
  const { quantity, orderId, widgetId, price, currency, query, ...metadataRest } = activity.metadata?.fields ?? {};
  const details: Record<string, unknown> = {};
  if (Object.keys(targetRest).length > 0) details.target = targetRest;
  if (Object.keys(metadataRest).length > 0) details.metadata = metadataRest;
  if (activity.metadata?.raw !== undefined) details.metadata = activity.metadata.raw;
  if (activity.user?.traits !== undefined && Object.keys(activity.user.traits).length > 0) details.traits = activity.user.traits;
  if (activity.user?.segments !== undefined) details.userSegments = activity.user.segments;
  if (Object.keys(who.unlinked).length > 0) details.identities = who.unlinked;
  if (activity.opposite !== undefined) details.opposite = activity.opposite;
  // A view of a page that names a widget is the widget being seen (the elements send it on impression), not a page view.
  const impression = activity.action === 'view' && product === undefined && widgetId !== undefined;
  return newActivity({
    profileId: who.profileId,
    source: 'collect',
    verb: activity.action,
    type: product !== undefined ? 'product' : impression ? IMPRESSION_TYPE : 'page',
    itemId: impression ? widgetId : (product ?? page ?? pathToPage)!,
    timestamp: activity.timestamp ?? now,
    clientKey,
    price,
    quantity,
    currency,
    orderId,
    sessionId: who.sessionId,
    widgetId,
    sourceId: activity.sourceId,
    query,
    // Segments filter activities: the activity's own, else the user's, else the profile's (set by identify).
    segments: { activity: activity.segments, user: activity.user?.segments, profile: who.profileSegments },
    details,
  });
}
