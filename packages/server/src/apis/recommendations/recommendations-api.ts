/**
 * The recommendation API (`GET /widget/...`): one widget per call, several with `/widget/multi/...`,
 * and the photo and redirect links of e-mails. Public: storefront pages on any origin call it.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import { type ApiModule, type ServerDeps } from '../api-module.js';
import type { EnvironmentRef } from '../../platform/config/registry.js';
import type { WidgetConfig } from '../../platform/config/schema.js';
import { HttpError, notFound } from '../http/errors.js';
import { isVariablesSegment, readParams } from './recommendation-params.js';
import { applyMask, parseMask } from '../../platform/response-mask.js';
import { singleParam } from '../http/query.js';
import { SAME_ORIGIN, followableUrl, sendPhoto, sendRedirect, slotAt } from './email-links.js';
import { SESSION_IDENTITY } from '../collect/collect-schema.js';
import { newActivity } from '../../domains/tracking/new-activity.js';
import { usableShopperId } from '../../domains/experiments/assignment.js';
import { noStore } from '../http/no-store.js';

type WidgetRef = EnvironmentRef & { widget: WidgetConfig };

/** Who a path names: nobody, a profile id, or a user id in an identity repository or datasource. */
type UserRef = { kind: 'anonymous' } | { kind: 'profile'; profileId: string } | { kind: 'repository' | 'datasource'; source: string; userId: string };

export function createRecommendationsApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  router.use(noStore);
  const { limits } = deps.services;
  const { activities, recommendations } = deps.services;

  const profileOf = (ref: WidgetRef, user: UserRef): string | undefined => {
    const tenantId = ref.tenant.id;
    if (user.kind === 'anonymous') return undefined;
    if (user.kind === 'profile') return activities.findProfile(tenantId, { profileId: user.profileId })?.id ?? user.profileId;
    if (isSessionRepository(ref, user)) return activities.findProfile(tenantId, { sessionId: user.userId })?.id;
    const found = activities.findProfile(tenantId, user.kind === 'repository' ? { repository: user.source, userId: user.userId } : { datasource: user.source, userId: user.userId });
    return found?.id;
  };

  router.get('/widget/multi/:widgetIds/recommendations/:profileId{/:variables}', limits.byAddress, limits.byKey((ctx) => ctx.params.widgetIds), async (ctx) => {
    const params = readParams(ctx.query, ctx.params.variables);
    const mask = fieldsMask(ctx);
    // Each widget's answer is a Wire.RecommendationResponse until `fields` masks it, so the map holds what the mask left.
    const body: Record<string, unknown> = {};
    for (const widgetId of splitWidgetIds(ctx.params.widgetIds!, (id) => deps.registry.widget(id))) {
      const ref = deps.registry.widget(widgetId);
      const profileId = profileOf(ref, { kind: 'profile', profileId: ctx.params.profileId! });
      const response: Wire.RecommendationResponse = await recommendations.recommend({ ref, profileId, ...params, shopperId: usableShopperId(ctx.params.profileId) });
      body[widgetId] = applyMask(response, mask);
    }
    ctx.body = body;
  });

  router.get('/widget/:widgetId/recommendations{/*rest}', limits.byAddress, limits.byKey((ctx) => ctx.params.widgetId), async (ctx) => {
    const ref = deps.registry.widget(ctx.params.widgetId!);
    const segments = pathSegments(ctx);
    const last = segments.at(-1);
    if (segments.length === 4 && (last === 'photo.png' || last === 'redirect.html')) {
      await emailLink(ctx, ref, segments as [string, string, string, string]);
      return;
    }
    const pathVariables = last !== undefined && isVariablesSegment(last) ? segments.pop() : undefined;
    const params = readParams(ctx.query, pathVariables);
    const mask = fieldsMask(ctx);
    const user = userRef(ref, segments, ctx.path.endsWith('/'));
    const response: Wire.RecommendationResponse = await recommendations.recommend({ ref, profileId: profileOf(ref, user), ...params, shopperId: shopperOf(user) });
    ctx.body = applyMask(response, mask);
  });

  async function emailLink(ctx: Context, ref: WidgetRef, [source, userId, index, file]: [string, string, string, string]): Promise<void> {
    const user = userRef(ref, [source, userId], false);
    if (user.kind !== 'repository' && user.kind !== 'datasource') throw notFound('not_found', 'No such recommendation link.', 'datasourceId');
    const params = readParams(ctx.query, undefined);
    const profileId = profileOf(ref, user);
    const response = await recommendations.emailList({ ref, profileId, ...params, offset: 0, limit: undefined, userKey: `${user.kind}:${source}:${userId}`, shopperId: shopperOf(user) });
    const slot = slotAt(response, index);
    // Without a shop URL, the configured public URL; else a path on the origin the link was opened on (never the Host header).
    const base = ref.widget.shopUrl ?? deps.config.publicUrl ?? SAME_ORIGIN;
    if (file === 'photo.png') {
      sendPhoto(ctx, slot?.photo || undefined, base);
      return;
    }
    const target = followableUrl(slot?.url, base);
    if (slot === undefined || target === undefined) {
      sendRedirect(ctx, ref.widget.fallbackUrl ?? ref.widget.shopUrl ?? '/');
      return;
    }
    // The click is recorded for the mail's user, creating the profile if the mail reached someone never seen on the site.
    const claims = isSessionRepository(ref, user) ? { sessionId: userId } : user.kind === 'repository' ? { identities: { [source]: userId } } : { datasources: [{ id: source, original_id: userId }] };
    const { profile } = await activities.resolveProfile(ref.tenant.id, claims);
    await activities.recordActivities(ref.tenant.id, [
      newActivity({
        profileId: profile.id,
        source: 'tracker',
        verb: 'click-on-reco',
        type: 'product',
        itemId: slot._id.original_id,
        timestamp: deps.clock.now(),
        widgetId: ref.widget.id,
        recommendationId: response.id,
        datasourceId: user.kind === 'datasource' ? source : undefined,
      }),
    ]);
    sendRedirect(ctx, target);
  }

  return { name: 'recommendations', mount: 'base', router, public: true };
}

/** The id an experiment draws a variant for: the path's `{profileId}` or `{userId}` (docs/experiments.md). */
function shopperOf(user: UserRef): string | undefined {
  return user.kind === 'anonymous' ? undefined : usableShopperId(user.kind === 'profile' ? user.profileId : user.userId);
}

function pathSegments(ctx: Context): string[] {
  const rest = (ctx.params as Record<string, unknown>).rest;
  const parts = Array.isArray(rest) ? rest.map(String) : typeof rest === 'string' ? rest.split('/') : [];
  return parts.filter((p) => p !== '');
}

/** A `sessionid` path the tenant does not configure as a repository of its own names an anonymous session. */
function isSessionRepository(ref: WidgetRef, user: UserRef): user is { kind: 'repository'; source: string; userId: string } {
  return user.kind === 'repository' && user.source === SESSION_IDENTITY && !ref.tenant.identityRepositories.includes(SESSION_IDENTITY);
}

/**
 * Two segments name a user in an identity repository or a datasource of the tenant; the spec's
 * trailing slash marks the repository form when a name is configured as both.
 */
function userRef(ref: WidgetRef, segments: readonly string[], trailingSlash: boolean): UserRef {
  if (segments.length === 0) return { kind: 'anonymous' };
  if (segments.length === 1) return { kind: 'profile', profileId: segments[0]! };
  if (segments.length === 2) {
    const [source, userId] = segments as [string, string];
    // `sessionid` is the published activity client's anonymous id: usable like a repository (docs/tracking.md).
    const repository = ref.tenant.identityRepositories.includes(source) || source === SESSION_IDENTITY;
    const datasource = ref.tenant.datasources.includes(source);
    if (repository && (trailingSlash || !datasource)) return { kind: 'repository', source, userId };
    if (datasource) return { kind: 'datasource', source, userId };
    throw notFound('not_found', `"${source}" is neither an identity repository nor a datasource of this tenant.`, 'datasourceId');
  }
  throw new HttpError(404, 'not_found', 'No such recommendation endpoint.');
}

/**
 * Widget ids joined by "," or by "-". Ids may contain "-" themselves (`demo-popular`), so the dash form
 * is read greedily: the longest run of parts that names a configured widget.
 */
export function splitWidgetIds(joined: string, lookup: (id: string) => unknown): string[] {
  if (joined.includes(',')) return joined.split(',').filter((id) => id !== '');
  const known = (id: string): boolean => {
    try {
      lookup(id);
      return true;
    } catch {
      return false;
    }
  };
  if (known(joined)) return [joined];
  const parts = joined.split('-');
  const ids: string[] = [];
  let start = 0;
  while (start < parts.length) {
    let end = parts.length;
    while (end > start + 1 && !known(parts.slice(start, end).join('-'))) end--;
    ids.push(parts.slice(start, end).join('-'));
    start = end;
  }
  return ids;
}

/** `fields`: a json-mask of each recommendation response, in the same syntax as search's customResponseMask. */
function fieldsMask(ctx: Context): ReturnType<typeof parseMask> {
  const raw = singleParam(ctx.query.fields, 'fields');
  return raw === undefined ? undefined : parseMask(raw, 'fields');
}
