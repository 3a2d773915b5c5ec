/** The tracker's profile: made by identify on the first visit, kept in the cookie, reused, renewed, joined to a customer on login. */
import { expect } from '@esm-bundle/chai';
import { readProfileCookie, writeProfileCookie } from '../src/profile-cookie.js';
import { eventually, historyOf, resetTracking, server, startTestTracker, TEST_TIMEOUT_MS } from './tracker-helpers.js';

interface StoredCookie {
  value: string;
  sameSite: string;
  expires: number | null;
}
const cookieStore = (globalThis as unknown as { cookieStore: { get(name: string): Promise<StoredCookie | null> } }).cookieStore;

describe('tracker profile', function () {
  this.timeout(TEST_TIMEOUT_MS);
  beforeEach(resetTracking);
  afterEach(resetTracking);

  it('creates a profile through identify on the first visit and keeps it in a SameSite=Lax cookie for 13 months', async () => {
    expect(readProfileCookie()).to.equal(undefined);
    const tracker = startTestTracker();
    const profileId = await tracker.ready();
    expect(profileId).to.match(/^[A-Za-z0-9_-]+$/);
    expect(tracker.profileId()).to.equal(profileId);
    expect(readProfileCookie()).to.equal(profileId);
    const stored = await cookieStore.get('dk_pid');
    expect(stored?.value).to.equal(profileId);
    expect(stored?.sameSite).to.equal('lax');
    const days = (stored!.expires! - Date.now()) / 86_400_000;
    expect(days).to.be.within(394.9, 395.1);
    // The server knows the profile: its (empty) activity listing answers.
    const listing = await fetch(`${window.DISCOVERY_TEST_SERVER}/tracker/demo-tracker-key/profiles/${profileId}/activities`);
    expect(listing.status).to.equal(200);
  });

  it('reuses the cookie on the next visit instead of making a new profile', async () => {
    const first = await startTestTracker().ready();
    const second = startTestTracker();
    expect(await second.ready()).to.equal(first);
    expect(readProfileCookie()).to.equal(first);
  });

  it('honours a configured cookie lifetime and name', async () => {
    const tracker = startTestTracker({ cookie: { name: 'shop_pid', lifetimeDays: 30 } });
    const profileId = await tracker.ready();
    const stored = await cookieStore.get('shop_pid');
    expect(stored?.value).to.equal(profileId);
    expect((stored!.expires! - Date.now()) / 86_400_000).to.be.within(29.9, 30.1);
    expect(readProfileCookie()).to.equal(undefined);
    document.cookie = 'shop_pid=; Path=/; Max-Age=0';
  });

  it('replaces a cookie the server does not know with a fresh profile', async () => {
    writeProfileCookie('p_stale-from-an-old-install');
    const profileId = await startTestTracker().ready();
    expect(profileId).not.to.equal('p_stale-from-an-old-install');
    expect(readProfileCookie()).to.equal(profileId);
    expect((await fetch(`${window.DISCOVERY_TEST_SERVER}/tracker/demo-tracker-key/profiles/${profileId}/activities`)).status).to.equal(200);
  });

  it('joins a logged-in customer across profiles, and starts a new anonymous profile after logout', async () => {
    const customer = `c-${Math.random().toString(36).slice(2)}`;
    const tracker = startTestTracker();
    const before = await tracker.ready();
    tracker.login(customer);
    tracker.track({ action: 'view', productId: '84029' });
    await tracker.flush();

    tracker.logout();
    expect(readProfileCookie()).to.equal(undefined);
    expect(tracker.profileId()).to.equal(undefined);
    const after = await tracker.ready();
    expect(after).not.to.equal(before);
    expect(readProfileCookie()).to.equal(after);

    // Logging in again on the new profile joins it to the customer: recommendations for the customer
    // know both views. The public history of a browser's id shows only what was sent with that id
    // (docs/privacy.md: a customer id never hands another device's history to whoever sends it).
    tracker.login(customer);
    tracker.track({ action: 'view', productId: '85123A' });
    await tracker.flush();
    const history = await eventually(() => historyOf(after!), (h) => h.length >= 1);
    expect(history.map((a) => a.originalId)).to.deep.equal(['85123A']);
    const recentlyViewed = async () => {
      const response = await fetch(`${server()}/widget/demo-recently-viewed/recommendations/customer-id/${encodeURIComponent(customer)}/`);
      const body = (await response.json()) as { recommendations?: Array<{ product: { _id: { original_id: string } } }> };
      return (body.recommendations ?? []).map((r) => r.product._id.original_id);
    };
    expect((await eventually(recentlyViewed, (ids) => ids.length >= 2)).sort()).to.deep.equal(['84029', '85123A']);
  });
});
