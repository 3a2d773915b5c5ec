/**
 * The older tracker (`{base_url}/tracker/{trackerKey}/...`): identify a visitor, record activities
 * by verb, and list a profile's activities. Public: storefront tags call it from any origin.
 */
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type * as Wire from '@discovery-kit/protocol';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { clientKeyFor, UNATTRIBUTED, type LoggedActivity } from '../../domains/tracking/activity-record.js';
import type { NewActivity } from '../../domains/tracking/activity-service.js';
import { newActivity } from '../../domains/tracking/new-activity.js';
import type { Profile } from '../../domains/tracking/profiles.js';
import type { TenantConfig } from '../../platform/config/schema.js';
import { jsonBody } from '../http/body.js';
import { HttpError, notFound } from '../http/errors.js';
import { parseInput } from '../http/validate.js';
import { idempotencyHeader } from '../collect/collect-api.js';
import { renderHistory } from './tracker-history.js';
import {
  identifyBodySchema,
  MANDATORY_VERBS,
  TRACKER_BODY_LIMIT,
  trackerActivitySchema,
  trackerBatchSchema,
  type TrackerActivity,
} from './tracker-schema.js';
import { isPurchase } from '../../domains/tracking/verbs.js';
import { noStore } from '../http/no-store.js';


export function createTrackerApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  router.use(noStore);
  const activities = deps.services.activities;
  const { limits } = deps.services;
  const limited = [limits.byAddress, limits.byKey((ctx) => ctx.params.trackerKey)];
  const body = jsonBody({ limit: TRACKER_BODY_LIMIT, textPlainAsJson: true });

  router.post('/tracker/:trackerKey/identify', ...limited, body, async (ctx) => {
    const { tenant } = deps.registry.trackerKey(ctx.params.trackerKey!);
    const { profile: request } = parseInput(identifyBodySchema, ctx.request.body);
    const issues = (request.datasources ?? []).flatMap((ds, index) =>
      tenant.datasources.includes(ds.id) ? [] : [{ path: `profile.datasources[${index}].id`, message: unknownName('datasource', ds.id, tenant.datasources) }],
    );
    if (issues.length > 0) throw new HttpError(400, 'invalid_body', `${issues[0]!.path}: ${issues[0]!.message}`, { issues });
    // A stale cookie (an id this server never made, or made before its data was reset) starts a fresh profile instead of failing the page.
    const known = request.id !== undefined && activities.findProfile(tenant.id, { profileId: request.id }) !== undefined;
    // The answer names the caller's own profile, never one its claims found: a CRM id is guessable, and
    // the id answered here opens the public history endpoint (docs/privacy.md, "Who sees a profile's history").
    const own = known ? request.id! : (await activities.resolveProfile(tenant.id, {})).profile.id;
    const { profile } = await activities.resolveProfile(tenant.id, {
      profileId: own,
      datasources: request.datasources,
      infos: request.infos,
      segments: request.segments,
    });
    const view: Wire.TrackerProfile =
      profile.id === own
        ? profileView(profile)
        : // Merged into a person: what that person holds came from elsewhere, so only what this call sent is echoed.
          { id: own, datasources: request.datasources ?? [], infos: request.infos ?? {}, segments: request.segments ?? {} };
    const answer: Wire.IdentifyResponse = { profile: view, created: !known };
    ctx.body = answer;
  });

  router.post('/tracker/:trackerKey/activity', ...limited, body, async (ctx) => {
    const { tenant } = deps.registry.trackerKey(ctx.params.trackerKey!);
    const envelope = ctx.request.body;
    const value = typeof envelope === 'object' && envelope !== null ? (envelope as { activity?: unknown }).activity : undefined;
    if (value === undefined) throw new HttpError(400, 'invalid_body', 'activity: an activity object or an array of them is required', { field: 'activity' });
    const batch = Array.isArray(value);
    const parsed: TrackerActivity[] = batch ? parseInput(trackerBatchSchema, value, 'activity') : [parseInput(trackerActivitySchema, value, 'activity')];
    const at = (index: number, field: string) => `activity${batch ? `[${index}]` : ''}.${field}`;
    checkVerbs(tenant, parsed, at);
    activities.refuseWhileBehind(tenant.id);

    const profiles = parsed.map((activity, index): Profile | undefined => {
      if (activity.profile === undefined) return undefined;
      const profile = activities.findProfile(tenant.id, { profileId: activity.profile });
      if (profile === undefined) throw notFound('not_found', `No profile "${activity.profile}"; call identify first.`, at(index, 'profile'));
      return profile;
    });
    // The older tracker has no order id: the items bought in one request are one order.
    const batchOrder = `batch:${randomBytes(8).toString('base64url')}`;
    const idempotencyKey = idempotencyHeader(ctx);
    const now = deps.clock.now();
    const inputs: NewActivity[] = parsed.map((activity, index) => {
      const clientKey = clientKeyFor(activity.id, idempotencyKey, index);
      const profile = profiles[index];
      return newActivity({
        // Recorded under the id it was sent with (the directory maps it to the person), so that the public
        // history of that id shows what was sent with it and no more.
        profileId: profile === undefined ? undefined : activity.profile,
        source: 'tracker',
        verb: activity.verb,
        type: activity.type,
        itemId: activity.original_id,
        timestamp: now,
        clientKey,
        price: activity.price,
        quantity: activity.quantity,
        orderId: isPurchase(activity.verb) ? batchOrder : undefined,
        datasourceId: profile?.datasources[0]?.id,
        widgetId: activity.widgetId,
        recommendationId: activity.recommendationId,
        // The profile's segments (from identify) describe the shopper at the time of the activity.
        segments: { activity: activity.segments, profile: profile?.segments },
      });
    });
    const recorded = await activities.recordActivities(tenant.id, inputs, { address: ctx.ip }, { foldAfterAnswer: true });
    const answer: Wire.TrackerActivityResponse = { activities: recorded.map(({ activity }) => activityView(activity)) };
    ctx.body = answer;
  });

  router.get('/tracker/:trackerKey/profiles/:profileId/activities', ...limited, async (ctx) => {
    const { tenant } = deps.registry.trackerKey(ctx.params.trackerKey!);
    const profileId = ctx.params.profileId!;
    if (activities.findProfile(tenant.id, { profileId }) === undefined) throw notFound('not_found', `No profile "${profileId}".`, 'profileId');
    ctx.body = await renderHistory(ctx, async (filters, range) => {
      const page = await activities.historyPage(tenant.id, profileId, filters, range);
      return { total: page.total, data: page.activities.map((a) => activityView(a, profileId)) };
    });
  });

  return { name: 'tracker', mount: 'base', router, public: true };
}

function unknownName(kind: string, name: string, known: readonly string[]): string {
  return `unknown ${kind} "${name}"; expected one of ${known.map((k) => `"${k}"`).join(', ') || '(none configured)'}`;
}

/**
 * Verbs are the mandatory ones plus those the tenant gave a weight; a click on a recommendation must name
 * one. An id this tenant was never issued is stored all the same, unverified (it credits nothing).
 */
function checkVerbs(tenant: TenantConfig, activities: readonly TrackerActivity[], at: (index: number, field: string) => string): void {
  const verbs = [...new Set<string>([...MANDATORY_VERBS, ...Object.keys(tenant.verbWeights)])];
  const issues: Array<{ path: string; message: string }> = [];
  for (const [index, activity] of activities.entries()) {
    if (!verbs.includes(activity.verb)) issues.push({ path: at(index, 'verb'), message: unknownName('verb', activity.verb, verbs) });
    if (activity.verb !== 'click-on-reco') continue;
    if (activity.recommendationId === undefined) {
      issues.push({ path: at(index, 'recommendationId'), message: 'click-on-reco needs the recommendationId the recommendation API returned' });
    }
  }
  if (issues.length > 0) throw new HttpError(400, 'invalid_body', `${issues[0]!.path}: ${issues[0]!.message}`, { issues });
}

function profileView(profile: Profile): Wire.TrackerProfile {
  return { id: profile.id, datasources: profile.datasources, infos: profile.infos, segments: profile.segments };
}

export function activityView(activity: LoggedActivity, profileId: string | null = activity.profileId === UNATTRIBUTED ? null : activity.profileId): Wire.TrackerActivityView {
  return {
    id: activity.id,
    verb: activity.verb,
    type: activity.type,
    originalId: activity.itemId,
    profileId,
    datasourceId: activity.datasourceId ?? null,
    segments: activity.segments ?? {},
    tenant: activity.tenant,
    price: activity.price ?? null,
    quantity: activity.quantity ?? null,
    timestamp: activity.timestamp,
  };
}
