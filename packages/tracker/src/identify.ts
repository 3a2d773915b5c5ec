/** The older tracker's identify call, which makes the profile id the cookie keeps. */

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
  const response = await fetch(`${apiBase}/tracker/${encodeURIComponent(trackerKey)}/identify`, {
    method: 'POST',
    body: JSON.stringify({ profile: profileId ? { id: profileId } : {} }),
    credentials: 'omit',
  });
  if (!response.ok) throw new Error(`identify answered ${response.status}`);
  const answer = (await response.json()) as { profile: { id: string }; created: boolean };
  return { profileId: answer.profile.id, created: answer.created };
}
