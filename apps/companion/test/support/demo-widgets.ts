/** What the demo shop's widgets answer, read as a storefront would: the item ids of a widget's list. */
import assert from 'node:assert/strict';

/** The demo's "Recently viewed" for a browser session, newest first (asserting a 200). */
export async function recentlyViewed(base: string, session: string, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await fetch(`${base}/widget/demo-recently-viewed/recommendations/sessionid/${session}/`, { headers });
  assert.equal(response.status, 200);
  const body = (await response.json()) as { recommendations: Array<{ product: { _id: { original_id: string } } }> };
  return body.recommendations.map((r) => r.product._id.original_id);
}
