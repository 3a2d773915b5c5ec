/**
 * Who a collected activity belongs to. The interface's `user.identities` names are agreed per account;
 * we accept three kinds (docs/tracking.md, "Identities"):
 * - `sessionid`, the published client's anonymous id: an anonymous session, merged into the shopper's
 *   profile once they are identified;
 * - the tenant's configured identity repositories: nominative ids;
 * - any other name: kept on the activity as sent, but never used to find or merge a profile, since an
 *   id nobody agreed on must not join two shoppers.
 * An activity with nothing usable (or no `user`) is counted in the aggregates and belongs to no profile.
 */
import type { IdentityClaims } from '../../domains/tracking/profiles.js';
import { SESSION_IDENTITY, type CollectActivity } from './collect-schema.js';

export interface CollectAttribution {
  /** Undefined when nothing names the shopper: the activity is unattributed. */
  claims: IdentityClaims | undefined;
  /** Identity names the tenant does not configure, kept with the activity only. */
  unlinked: Record<string, string>;
}

/**
 * `isKnownProfile` tells whether a `profileId` was issued here; one we never issued (a stale cookie)
 * stands in as the session id, so its sends still share one profile.
 */
export function attributeUser(
  user: CollectActivity['user'],
  repositories: readonly string[],
  isKnownProfile: (profileId: string) => boolean,
): CollectAttribution {
  const unlinked: Record<string, string> = {};
  if (user === undefined) return { claims: undefined, unlinked };
  const identities: Record<string, string> = {};
  let sessionId = user.sessionId;
  for (const [name, value] of Object.entries(user.identities ?? {})) {
    if (repositories.includes(name)) identities[name] = value;
    else if (name.toLowerCase() === SESSION_IDENTITY) sessionId ??= value;
    else unlinked[name] = value;
  }
  const known = user.profileId !== undefined && isKnownProfile(user.profileId);
  if (!known && sessionId === undefined) sessionId = user.profileId;
  const claims: IdentityClaims = {
    ...(known ? { profileId: user.profileId } : {}),
    ...(Object.keys(identities).length > 0 ? { identities } : {}),
    ...(sessionId === undefined ? {} : { sessionId }),
  };
  return { claims: Object.keys(claims).length === 0 ? undefined : claims, unlinked };
}
