/** The profile cookie in a real browser: it is stored, read back, refused when tampered with, and cleared. */
import { expect } from '@esm-bundle/chai';
import { clearProfileCookie, profileCookieString, readProfileCookie, writeProfileCookie } from '../src/profile-cookie.js';

describe('profile cookie', () => {
  afterEach(() => clearProfileCookie());

  it('stores the profile id and reads it back', () => {
    expect(readProfileCookie()).to.equal(undefined);
    writeProfileCookie('p_123-abc');
    expect(readProfileCookie()).to.equal('p_123-abc');
    expect(document.cookie).to.contain('dk_pid=p_123-abc');
  });

  it('ignores a value that is not a profile id', () => {
    document.cookie = 'dk_pid=%3Cscript%3E; Path=/';
    expect(readProfileCookie()).to.equal(undefined);
  });

  it('ignores a malformed escape instead of throwing (startTracker reads it first thing)', () => {
    document.cookie = 'dk_pid=%E0%A4%A; Path=/';
    expect(() => readProfileCookie()).not.to.throw();
    expect(readProfileCookie()).to.equal(undefined);
  });

  it('clears the cookie on logout', () => {
    writeProfileCookie('p_1');
    clearProfileCookie();
    expect(readProfileCookie()).to.equal(undefined);
  });

  it('is SameSite=Lax for 13 months, Secure on https, with an optional domain', () => {
    const plain = profileCookieString('p_1', {}, 'http:');
    expect(plain).to.contain('SameSite=Lax');
    expect(plain).to.contain(`Max-Age=${395 * 86400}`);
    expect(plain).not.to.contain('Secure');
    const secure = profileCookieString('p_1', { domain: '.shop.example', lifetimeDays: 30 }, 'https:');
    expect(secure).to.contain('; Secure');
    expect(secure).to.contain('Domain=.shop.example');
    expect(secure).to.contain(`Max-Age=${30 * 86400}`);
  });
});
