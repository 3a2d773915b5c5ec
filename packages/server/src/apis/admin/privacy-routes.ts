/**
 * Data-subject requests through the admin API (docs/privacy.md): `GET /admin/profiles/export` answers
 * everything held about one person as a JSON download, `DELETE /admin/profiles` erases it. The person
 * is named by a profile id or by an identity: `?profileId=`, `?repository=<name>&userId=` (the
 * collection API's identities, such as a customer id), `?datasource=<name>&userId=` (the older
 * tracker's) or `?sessionId=` (a browser's session id: a visitor who never logged in). Both need an
 * editing account (personal data is not for read-only analysts), and both leave an audit line naming
 * only the pseudonymous profile ids.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ServerDeps } from '../api-module.js';
import { HttpError } from '../http/errors.js';
import { singleParam } from '../http/query.js';

/**
 * Who the request names, resolved to the profile id it stands for (404 when nobody). With `orErased`,
 * a profile id that no longer exists is passed on as it is: an erasure by id then compacts the log
 * again, for an activity that raced the first erasure.
 */
function personOf(deps: ServerDeps, ctx: Context, orErased = false): { tenantId: string; profileId: string } {
  const tenantId = ctx.state.adminActor!.tenantId;
  const param = (name: string) => {
    const value = singleParam(ctx.query[name], name, `query.${name}`);
    if (value !== undefined && (value === '' || value.length > 256)) throw new HttpError(400, 'invalid_parameter', `query.${name} must be 1 to 256 characters.`, { field: `query.${name}` });
    return value;
  };
  const profileId = param('profileId');
  const repository = param('repository');
  const datasource = param('datasource');
  const userId = param('userId');
  const sessionId = param('sessionId');
  const named = [profileId, repository, datasource, sessionId].filter((v) => v !== undefined).length;
  const byId = profileId !== undefined || sessionId !== undefined;
  if (named !== 1 || (!byId && userId === undefined) || (byId && userId !== undefined)) {
    throw new HttpError(400, 'invalid_parameter', 'Name the person by ?profileId=… or ?sessionId=…, or by ?repository=…&userId=… or ?datasource=…&userId=….', { field: 'query.profileId' });
  }
  const profile = deps.services.activities.findProfile(tenantId, sessionId !== undefined ? { sessionId } : { profileId, repository, datasource, userId });
  if (profile === undefined && orErased && profileId !== undefined) return { tenantId, profileId };
  if (profile === undefined) throw new HttpError(404, 'not_found', 'No profile of this tenant is known by that id.', { field: profileId !== undefined ? 'query.profileId' : sessionId !== undefined ? 'query.sessionId' : 'query.userId' });
  return { tenantId, profileId: profile.id };
}

function requireEditor(ctx: Context): void {
  if (ctx.state.adminActor!.role !== 'edit') throw new HttpError(403, 'forbidden', 'Exporting or erasing personal data needs an account with the "edit" admin role.');
}

export function privacyRoutes(router: Router, deps: ServerDeps, guard: Middleware): void {
  const { activities, admin, recommendations } = deps.services;
  const audit = (ctx: Context, action: string, profileIds: readonly string[], after: unknown) =>
    admin.audit.append(ctx.state.adminActor!.tenantId, {
      at: new Date(deps.clock.now()).toISOString(),
      actor: ctx.state.adminActor!.id,
      action,
      environment: '*',
      target: `profile:${profileIds[0]}`,
      before: null,
      after: { profileIds, ...(after as object) },
    });

  router.get('/profiles/export', guard, async (ctx) => {
    requireEditor(ctx);
    const { tenantId, profileId } = personOf(deps, ctx);
    const exported = await activities.exportPerson(tenantId, profileId);
    if (exported === undefined) throw new HttpError(404, 'not_found', 'No profile of this tenant is known by that id.', { field: 'query.profileId' });
    await audit(ctx, 'profile.export', exported.profiles.map((p) => p.id), { activities: exported.activities.length });
    ctx.set('Content-Disposition', `attachment; filename="profile-${profileId}.json"`);
    ctx.body = { exportedAt: new Date(deps.clock.now()).toISOString(), tenant: tenantId, ...exported };
  });

  router.delete('/profiles', guard, async (ctx) => {
    requireEditor(ctx);
    const { tenantId, profileId } = personOf(deps, ctx, true);
    const erased = await activities.erasePerson(tenantId, profileId);
    if (erased === undefined) throw new HttpError(404, 'not_found', 'No profile of this tenant is known by that id.', { field: 'query.profileId' });
    // The item model learned from the person's activities too: the next one is trained without them (also by a trainer started later).
    await recommendations.models.personErased(tenantId);
    await audit(ctx, 'profile.erase', erased.profileIds, { activities: erased.activities });
    ctx.body = { erased: { profiles: erased.profiles, activities: erased.activities } };
  });
}
