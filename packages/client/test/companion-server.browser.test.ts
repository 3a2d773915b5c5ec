/** The browser tests run against a real companion server on another origin, as a storefront page would. */
import { expect } from '@esm-bundle/chai';

declare global {
  interface Window {
    DISCOVERY_TEST_SERVER: string;
  }
}

describe('companion server from a browser page', () => {
  it('is running on another origin than the test page', async () => {
    const server = new URL(window.DISCOVERY_TEST_SERVER);
    expect(server.origin).not.to.equal(location.origin);
    // A private endpoint sends no CORS headers, so the page may only see an opaque answer.
    const response = await fetch(`${window.DISCOVERY_TEST_SERVER}/health`, { mode: 'no-cors' });
    expect(response.type).to.equal('opaque');
  });

  it('refuses to let the page read a private API', async () => {
    let refused = false;
    try {
      await fetch(`${window.DISCOVERY_TEST_SERVER}/health`);
    } catch {
      refused = true;
    }
    expect(refused).to.equal(true);
  });
});
