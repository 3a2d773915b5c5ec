/** The admin API over the real server: every operation, its refusals, persistence across a restart, and the audit log. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { adminConfig, adminToken, consoleSignIn, CONSOLE_PASSWORD } from './support/admin-fixture.js';
import { loadCatalog } from './support/recommendation-fixture.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

const ENV = 'environment=prod';

describe('admin API', () => {
  let server: TestServer;
  let config: Record<string, unknown>;
  const clock = new ManualClock();
  let editor: Record<string, string>;
  let reader: Record<string, string>;
  let otherTenant: Record<string, string>;
  const api = (path: string, headers: Record<string, string>, init: RequestInit & { json?: unknown } = {}) =>
    call(`${server.url}/admin${path}${path.includes('?') ? '&' : '?'}${ENV}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const search = async (query: string, token = 'tenant-a-search') => call(`${server.url}/search`, { json: { token, query } });
  const ids = (body: { items: Array<{ id: string }> }) => body.items.map((i) => i.id);
  const token = async (who: 'client-a' | 'reader-a' | 'client-b') => {
    clock.advance(1000);
    return { authorization: `Bearer ${await adminToken(server, clock.now(), who)}` };
  };

  before(async () => {
    config = await adminConfig();
    server = await startTestServer({ config, clock });
    await loadCatalog(server.server);
    editor = await token('client-a');
    reader = await token('reader-a');
    otherTenant = await token('client-b');
  });
  after(() => server.cleanup());

  it('refuses callers without a token or session, and tokens that do not verify', async () => {
    assert.equal((await api('/widgets', {})).status, 401);
    const legacy = (await call(`${server.url}/admin/widgets?${ENV}`, { headers: { authorization: 'Bearer not-a-token' } })).status;
    assert.equal(legacy, 401);
  });

  it('reads and creates a widget that the public recommendation API serves at once, and records who did it', async () => {
    const before = await api('/widgets', reader);
    assert.equal(before.status, 200);
    assert.ok(before.body.widgets.some((w: { id: string }) => w.id === 'w-popular'));
    const put = await api('/widgets/w-new', editor, { method: 'PUT', json: { title: 'New', strategies: ['popular'], maxResults: 2 } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.minResults, 1, 'defaults come from the configuration schema');
    const reco = await call(`${server.url}/widget/w-new/recommendations`);
    assert.equal(reco.status, 200);
    assert.equal(reco.body.widget.title, 'New');
    assert.ok(reco.body.recommendations.length >= 1 && reco.body.recommendations.length <= 2);
    const audit = await api('/audit', reader);
    assert.deepEqual(
      { actor: audit.body.entries[0].actor, action: audit.body.entries[0].action, target: audit.body.entries[0].target, before: audit.body.entries[0].before },
      { actor: 'account:client-a', action: 'widget.create', target: 'widget:w-new', before: null },
    );
    assert.equal(audit.body.entries[0].after.maxResults, 2);
  });

  it('refuses a read-only account any change, and stores nothing', async () => {
    const res = await api('/widgets/w-popular', reader, { method: 'PUT', json: { strategies: ['trending'] } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'forbidden');
    assert.deepEqual((await api('/widgets/w-popular', reader)).body.strategies, ['popular']);
    assert.equal((await api('/tracker-keys', reader, { method: 'POST' })).status, 403);
  });

  it("never reaches another tenant's resources", async () => {
    const asked = await call(`${server.url}/admin/widgets?tenant=tenant-b&${ENV}`, { headers: editor });
    assert.equal(asked.status, 403);
    assert.equal(asked.body.error.field, 'tenant');
    assert.equal((await api('/widgets/tenant-b-popular', editor)).status, 404);
    const taken = await api('/widgets/tenant-b-popular', editor, { method: 'PUT', json: { strategies: ['popular'] } });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error.field, 'id');
    assert.doesNotMatch(taken.body.error.message, /tenants\[/, 'the refusal does not say where the id is used');
    assert.equal((await api('/widgets/w-popular', otherTenant)).status, 404);
    assert.equal((await api('/search-tokens/tenant-a-search', otherTenant)).status, 404);
    assert.equal((await api('/tracker-keys/tenant-a-tracker', otherTenant, { method: 'DELETE' })).status, 404);
  });

  it('refuses a widget filter that does not parse in the search filter language with a 400 naming the field, and stores one that does', async () => {
    const previous = await api('/widgets/w-popular', reader);
    const bad = await api('/widgets/w-popular', editor, { method: 'PUT', json: { strategies: ['popular'], filters: [{ sameAs: 'brand' }, { where: 'price <= 60 OR' }] } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_body');
    assert.equal(bad.body.error.field, 'filters[1].where');
    assert.equal(bad.body.error.message, "filters[1].where: Filter syntax error at position 14: expected an attribute name, NOT or '(', found the end of the filter.");
    assert.deepEqual((await api('/widgets/w-popular', reader)).body, previous.body, 'the widget is unchanged');
    const where = "(brand = 'Acme' OR brand IN ('Other')) AND NOT price > $maxPrice";
    const good = await api('/widgets/w-filtered', editor, { method: 'PUT', json: { strategies: ['popular'], minResults: 10, maxResults: 10, filters: [{ where }] } });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    const reco = await call(`${server.url}/widget/w-filtered/recommendations?variables=${encodeURIComponent(JSON.stringify({ $maxPrice: 50 }))}`);
    assert.deepEqual(reco.body.recommendations.map((r: { product: { _id: { original_id: string } } }) => r.product._id.original_id).sort(), ['bag-1', 'sock-1']);
  });

  it('refuses invalid widgets and search rules naming the field, and keeps the previous ones', async () => {
    const bad = await api('/widgets/w-popular', editor, { method: 'PUT', json: { strategies: ['popular'], minResults: 5, maxResults: 2 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'minResults');
    const unknown = await api('/widgets/w-popular', editor, { method: 'PUT', json: { strategies: ['psychic'] } });
    assert.equal(unknown.body.error.field, 'strategies[0]');
    const where = await api('/widgets/w-popular', editor, { method: 'PUT', json: { strategies: ['popular'], filters: [{ where: 'cheap things' }] } });
    assert.equal(where.body.error.field, 'filters[0].where');
    const config = (field: Record<string, unknown>) => api('/search-tokens/tenant-a-search/configurations/default', editor, { method: 'PUT', json: field });
    const redirect = await config({ redirects: [{ id: 'r', name: 'x', url: 'javascript:alert(1)', queries: ['help'] }] });
    assert.equal(redirect.status, 400);
    assert.equal(redirect.body.error.field, 'redirects[0].url');
    assert.equal((await config({ rules: [{ query: 'shoes', pin: ['bag-1'], bury: ['bag-1'] }] })).body.error.field, 'rules[0].bury');
    assert.equal((await config({ synonyms: [['only-one']] })).body.error.field, 'synonyms[0]');
    assert.equal((await config({ fields: [{ attribute: 'title', weight: -1 }] })).body.error.field, 'fields[0].weight');
    const current = await api('/search-tokens/tenant-a-search', reader);
    assert.deepEqual(current.body.configurations[0].rules, []);
    assert.deepEqual((await api('/widgets/w-popular', reader)).body.strategies, ['popular']);
  });

  it('changes synonyms, pins and redirects of a search configuration, and search answers with them at once', async () => {
    assert.equal((await search('sneakers')).body.items.length, 0);
    const current = (await api('/search-tokens/tenant-a-search', reader)).body.configurations[0];
    const next = { ...current, synonyms: [['sneakers', 'shoes']], rules: [{ query: 'shoes', pin: ['bag-1'] }], redirects: [{ id: 'help', name: 'Help', url: 'https://shop.example/help', queries: ['help me'] }] };
    const res = await api('/search-tokens/tenant-a-search/configurations/default', editor, { method: 'PUT', json: next });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok((await search('sneakers')).body.items.length >= 3, 'the synonym finds the shoes');
    assert.equal(ids((await search('shoes')).body)[0], 'bag-1', 'the pinned item comes first');
    const help = await search('help me');
    assert.deepEqual(help.body.items[0].redirect, { id: 'help', name: 'Help', url: 'https://shop.example/help' });
    const explain = await api('/search-tokens/tenant-a-search/explain?q=shoes', reader);
    assert.equal(explain.status, 200);
    assert.equal(explain.body.hits[0].id, 'bag-1');
    assert.equal(explain.body.hits[0].rule, 'pinned');
    // The explanation lists the answer's first items, in the answer's order.
    const answered = ids((await search('shoes')).body);
    assert.ok(explain.body.hits.length > 1);
    assert.deepEqual(explain.body.hits.map((h: { id: string }) => h.id).slice(0, answered.length), answered.slice(0, explain.body.hits.length));
    const shoe = explain.body.hits.find((h: { id: string }) => h.id === 'shoe-1');
    assert.ok(shoe.matchedFields.some((f: { attribute: string }) => f.attribute === 'categories'));
    assert.equal(typeof shoe.score, 'number');
  });

  it('weights a field no configuration weighed before, and search finds words in it', async () => {
    assert.equal((await search('carousel-less-word')).body.items.length, 0);
    assert.equal((await search('red')).body.items.length, 0, 'color is not searched by default');
    const current = (await api('/search-tokens/tenant-a-search', reader)).body.configurations[0];
    const res = await api('/search-tokens/tenant-a-search/configurations/default', editor, { method: 'PUT', json: { ...current, fields: [...current.fields, { attribute: 'color', weight: 1 }] } });
    assert.equal(res.status, 200);
    assert.deepEqual(new Set(ids((await search('red')).body)), new Set(['shoe-1', 'shoe-3']));
  });

  it('creates, rotates and revokes search tokens', async () => {
    const created = await api('/search-tokens', editor, { method: 'POST', json: {} });
    assert.equal(created.status, 201);
    const first = created.body.token as string;
    assert.equal((await search('shoes', first)).status, 200);
    const rotated = await api(`/search-tokens/${first}/rotate`, editor, { method: 'POST' });
    assert.equal(rotated.status, 200);
    assert.equal((await search('shoes', first)).status, 404, 'the old value stops working');
    assert.equal((await search('shoes', rotated.body.token)).status, 200);
    assert.equal((await api(`/search-tokens/${rotated.body.token}`, editor, { method: 'DELETE' })).status, 204);
    assert.equal((await search('shoes', rotated.body.token)).status, 404);
  });

  it('creates, rotates and revokes tracker keys', async () => {
    const activity = { action: 'view', target: { product: 'shoe-1' }, user: { sessionId: 'keys' } };
    const created = await api('/tracker-keys', editor, { method: 'POST' });
    assert.equal(created.status, 201);
    const key = created.body.trackerKey as string;
    assert.equal((await call(`${server.url}/collect/${key}`, { json: activity })).status, 200);
    const rotated = (await api(`/tracker-keys/${key}/rotate`, editor, { method: 'POST' })).body.trackerKey as string;
    assert.equal((await call(`${server.url}/collect/${key}`, { json: activity })).status, 404);
    assert.equal((await call(`${server.url}/collect/${rotated}`, { json: activity })).status, 200);
    assert.equal((await api(`/tracker-keys/tenant-a-tracker`, editor, { method: 'DELETE' })).status, 204, 'a key from the file can be revoked too');
    assert.equal((await call(`${server.url}/collect/tenant-a-tracker`, { json: activity })).status, 404);
    assert.deepEqual((await api('/tracker-keys', reader)).body.trackerKeys, [rotated]);
  });

  it('lets a person sign in with a password, needs the CSRF token for changes, and locks after repeated failures', async () => {
    const wrong = await call(`${server.url}/admin/session`, { json: { tenant: 'tenant-a', username: 'merch', password: 'nope' } });
    assert.equal(wrong.status, 401);
    const headers = await consoleSignIn(server);
    const setCookie = (await call(`${server.url}/admin/session`, { json: { tenant: 'tenant-a', username: 'merch', password: CONSOLE_PASSWORD } })).headers.get('set-cookie')!;
    assert.match(setCookie, /httponly/i);
    assert.match(setCookie, /samesite=strict/i);
    const session = await call(`${server.url}/admin/session`, { headers: { cookie: headers.cookie! } });
    assert.equal(session.body.role, 'edit');
    const noCsrf = await api('/widgets/w-console', { cookie: headers.cookie! }, { method: 'PUT', json: { strategies: ['popular'] } });
    assert.equal(noCsrf.status, 403);
    assert.equal(noCsrf.body.error.field, 'X-CSRF-Token');
    const ok = await api('/widgets/w-console', headers, { method: 'PUT', json: { strategies: ['popular'] } });
    assert.equal(ok.status, 200);
    assert.equal((await api('/audit?limit=1', headers)).body.entries[0].actor, 'console:merch');
    const viewer = await consoleSignIn(server, 'viewer');
    assert.equal((await api('/widgets/w-console', viewer, { method: 'DELETE' })).status, 403);
    assert.equal((await call(`${server.url}/admin/session`, { method: 'DELETE', headers })).status, 204);
    assert.equal((await call(`${server.url}/admin/session`, { headers: { cookie: headers.cookie! } })).status, 401, 'signed out');
    signedOut = headers.cookie!;
    for (let i = 0; i < 5; i++) await call(`${server.url}/admin/session`, { json: { tenant: 'tenant-b', username: 'merch', password: 'guess' } });
    const locked = await call(`${server.url}/admin/session`, { json: { tenant: 'tenant-b', username: 'merch', password: CONSOLE_PASSWORD } });
    assert.equal(locked.status, 429);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    clock.advance(16 * 60_000);
    assert.equal((await call(`${server.url}/admin/session`, { json: { tenant: 'tenant-b', username: 'merch', password: CONSOLE_PASSWORD } })).status, 200);
  });

  /** The cookie of a console session signed out above: it must stay refused after a restart. */
  let signedOut: string | undefined;

  it('keeps every change across a restart, the stored change winning over the file', async () => {
    const dataDir = server.dataDir;
    await server.close();
    server = await startTestServer({ config, clock, dataDir });
    assert.equal((await call(`${server.url}/widget/w-new/recommendations`)).status, 200);
    await server.server.deps.services.search.settled();
    assert.equal(ids((await search('shoes')).body)[0], 'bag-1');
    assert.equal((await call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product: 'x' }, user: { sessionId: 's' } } })).status, 404);
    assert.ok((await api('/audit', await token('client-a'))).body.entries.length >= 8);
    // A sign-out is stored: the restarted server refuses the signed-out cookie as the one before did.
    assert.ok(signedOut !== undefined);
    assert.equal((await call(`${server.url}/admin/session`, { headers: { cookie: signedOut } })).status, 401, 'still signed out after the restart');
    assert.equal((await call(`${server.url}/admin/session`, { headers: { cookie: (await consoleSignIn(server)).cookie! } })).status, 200);
  });
});
