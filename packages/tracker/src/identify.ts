/** The older tracker's identify call, which makes the profile id the cookie keeps. */
import type { IdentifyRequest, IdentifyResponse } from '@discovery-kit/protocol';

export interface Identified {
  profileId: string;
  /** True when the server made a new profile (first visit, or a cookie it does not know). */
  created: boolean;
}

/**
 * Creates a profile (no `profileId`) or re-identifies one. The body goes as text/plain JSON, a CORS
 * "simple" request, so a page pays no preflight round trip; no credentials are sent.
 */
export async function identify(apiBase: string, trackerKey: string, profileId?: string): Promise<Identified> {
  const request: IdentifyRequest = { profile: profileId ? { id: profileId } : {} };
  const response = await fetch(`${apiBase}/tracker/${encodeURIComponent(trackerKey)}/identify`, {
    method: 'POST',
    body: JSON.stringify(request),
    credentials: 'omit',
  });
  if (!response.ok) throw new Error(`identify answered ${response.status}`);
  const answer = (await response.json()) as IdentifyResponse;
  return { profileId: answer.profile.id, created: answer.created };
}
