/** A storefront page on another origin sends activities to the real companion server: CORS fetch and sendBeacon both arrive. */
import { expect } from '@esm-bundle/chai';

declare global {
  interface Window {
    DISCOVERY_TEST_SERVER: string;
  }
}

const server = () => window.DISCOVERY_TEST_SERVER;

async function identify(): Promise<string> {
  const response = await fetch(`${server()}/tracker/demo-tracker-key/identify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ profile: {} }),
  });
  expect(response.status).to.equal(200);
  const body = (await response.json()) as { profile: { id: string } };
  return body.profile.id;
}

async function historyOf(profileId: string): Promise<Array<{ verb: string; originalId: string }>> {
  const response = await fetch(`${server()}/tracker/demo-tracker-key/profiles/${profileId}/activities`);
  const body = (await response.json()) as { data: Array<{ verb: string; originalId: string }> };
  return body.data;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return read();
}

describe('collection API from a storefront page', () => {
  it('accepts a cross-origin JSON fetch and lets the page read the answer', async () => {
    const profileId = await identify();
    const response = await fetch(`${server()}/collect/demo-tracker-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'view', target: { product: '84029' }, user: { profileId } }),
    });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ profiles: {} });
    const history = await historyOf(profileId);
    expect(history.map((a) => a.originalId)).to.include('84029');
  });

  it('delivers a sendBeacon (text/plain) send', async () => {
    const profileId = await identify();
    const queued = navigator.sendBeacon(
      `${server()}/collect/demo-tracker-key`,
      JSON.stringify([{ action: 'add-to-cart', target: { product: '22423' }, user: { profileId }, metadata: { quantity: 1 } }]),
    );
    expect(queued).to.equal(true);
    const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
    expect(history.map((a) => a.originalId)).to.include('22423');
  });

  it('lets the page read a refusal that names the field', async () => {
    const response = await fetch(`${server()}/collect/demo-tracker-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'teleport', target: { product: '1' }, user: { sessionId: 's-1' } }),
    });
    expect(response.status).to.equal(400);
    const body = (await response.json()) as { error: { field: string } };
    expect(body.error.field).to.equal('action');
  });
});
