/**
 * POST /search reads the common request shape without zod (apis/search/search-input.ts). These cases
 * hold it to the schema: every accepted shape gives the schema's output exactly, and every refused
 * body gets the schema's refusal, byte for byte, over POST and GET, from a real server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readSearchInput } from '../src/apis/search/search-input.js';
import { searchSchema } from '../src/apis/search/search-schemas.js';
import { domainRefusal } from '../src/apis/http/error-middleware.js';
import { DomainError } from '../src/platform/domain-error.js';
import { parseInput } from '../src/apis/http/validate.js';
import { startTestServer, testConfig, type TestServer } from './support/test-server.js';

const TOKEN = 'tenant-a-search';

const ACCEPTED: Record<string, unknown>[] = [
  { token: TOKEN },
  { token: TOKEN, query: 'red lamp' },
  { token: TOKEN, query: '', configurationId: 'default', disable: [{ name: 'facet' }, { name: 'correction' }] },
  { token: TOKEN, query: 'x'.repeat(1_000), options: {} },
  {
    token: TOKEN,
    query: 'lamp',
    options: {
      offset: 20,
      limit: 5_000,
      sortBy: [{ attribute: 'price', order: 'DESC' }, { attribute: 'title' }, { attribute: 'popularity', order: 'asc' }],
      facets: [{ id: 'color', values: ['Red', 'blue'] }, { id: 'brand' }],
      filter: "price < 4000 AND color = 'red'",
      customResponseMask: 'id,product(title)',
      disable: [{ name: 'item', note: 'other keys are dropped' }, { name: 'redirect' }],
      highlight: ['title', 'brand'],
    },
  },
  { token: TOKEN, query: 'lamp', options: { highlight: true, offset: 10_000, limit: 0 } },
  { token: TOKEN, query: 'lamp', options: { highlight: false, sortBy: [], facets: [], disable: [] } },
  // The published definition's current shape: itemOptions (alone, or winning over options) and a context passed on as sent.
  { token: TOKEN, query: 'lamp', itemOptions: { limit: 5, filter: 'price < 500' } },
  { token: TOKEN, query: 'lamp', options: { limit: 3 }, itemOptions: { offset: 2 }, context: { session: { sessionId: 's-1' }, contextVariables: [{ name: 'store', value: { stringValue: 'paris' } }] } },
];

/** Every one of these is refused: each through the schema, never by the fast reader. */
const REFUSED: unknown[] = [
  [],
  'lamp',
  {},
  { token: '' },
  { token: 5 },
  { token: TOKEN, query: 5 },
  { token: TOKEN, query: 'x'.repeat(1_001) },
  { token: TOKEN, configurationId: 7 },
  { token: TOKEN, disable: 'facet' },
  { token: TOKEN, disable: [{ name: 'everything' }] },
  { token: TOKEN, options: 'none' },
  { token: TOKEN, itemOptions: 'limit=5' },
  { token: TOKEN, itemOptions: { limit: -1 } },
  { token: TOKEN, options: [] },
  { token: TOKEN, options: { offset: -1 } },
  { token: TOKEN, options: { offset: 10_001 } },
  { token: TOKEN, options: { offset: 1.5 } },
  { token: TOKEN, options: { offset: '3' } },
  { token: TOKEN, options: { limit: -1 } },
  { token: TOKEN, options: { limit: null } },
  { token: TOKEN, options: { sortBy: { attribute: 'price' } } },
  { token: TOKEN, options: { sortBy: Array.from({ length: 9 }, () => ({ attribute: 'price' })) } },
  { token: TOKEN, options: { sortBy: [{ attribute: 'price', order: 'up' }] } },
  { token: TOKEN, options: { sortBy: [{ attribute: '' }] } },
  { token: TOKEN, options: { sortBy: [{ attribute: 'a'.repeat(201) }] } },
  { token: TOKEN, options: { sortBy: [{ attribute: 'price', direction: 'asc' }] } },
  { token: TOKEN, options: { facets: [{ id: '' }] } },
  { token: TOKEN, options: { facets: [{ id: 'color', values: [1] }] } },
  { token: TOKEN, options: { facets: [{ id: 'color', value: 'red' }] } },
  { token: TOKEN, options: { filter: 'x'.repeat(10_001) } },
  { token: TOKEN, options: { filter: 'brand =' } },
  { token: TOKEN, options: { customResponseMask: 'x'.repeat(2_001) } },
  { token: TOKEN, options: { customResponseMask: 'product(title' } },
  { token: TOKEN, options: { disable: [{ name: 'x' }] } },
  { token: TOKEN, options: { highlight: 'yes' } },
  { token: TOKEN, options: { highlight: [''] } },
  { token: TOKEN, options: { highlight: Array.from({ length: 21 }, () => 'title') } },
  { token: TOKEN, configurationId: 'missing' },
  { token: 'no-such-token', query: 'lamp' },
];

/** The body the schema's own refusal is answered with (error-middleware.ts), without the request id. */
function schemaRefusal(raw: unknown): Record<string, unknown> | undefined {
  try {
    parseInput(searchSchema, raw);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof DomainError);
    const { status, code } = domainRefusal(error);
    return { status, code, message: error.message, ...(error.field === undefined ? {} : { field: error.field }), ...(error.issues === undefined ? {} : { issues: error.issues }) };
  }
}

let server: TestServer;
before(async () => {
  server = await startTestServer({ config: testConfig() });
});
after(() => server.close());

async function refusal(res: Response, label: string): Promise<[number, Record<string, unknown>]> {
  const body = (await res.json()) as { error?: Record<string, unknown> };
  assert.ok(body.error !== undefined, `${label}: ${res.status} ${JSON.stringify(body)}`);
  const { requestId, ...rest } = body.error;
  assert.equal(typeof requestId, 'string');
  return [res.status, rest];
}

describe('the fast search-request reader', () => {
  it('gives the schema\'s output for every accepted shape', () => {
    for (const raw of ACCEPTED) {
      const fast = readSearchInput(raw);
      assert.ok(fast !== undefined, `the fast reader should take ${JSON.stringify(raw).slice(0, 80)}`);
      assert.deepStrictEqual(fast, searchSchema.parse(raw));
    }
  });

  it('leaves every refused body to the schema', () => {
    for (const raw of REFUSED) if (schemaRefusal(raw) !== undefined) assert.equal(readSearchInput(raw), undefined, JSON.stringify(raw).slice(0, 80));
  });

  it('answers each refused body with the schema\'s refusal, over POST and GET', async () => {
    for (const raw of REFUSED) {
      const label = JSON.stringify(raw).slice(0, 80);
      const posted = await refusal(await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(raw) }), label);
      assert.ok(posted[0] >= 400 && posted[0] < 500, label);
      const expected = schemaRefusal(raw);
      // Bodies the schema accepts are refused later (unknown token or configuration, filter or mask syntax): the same code answers both paths.
      if (expected !== undefined) assert.deepEqual(posted, [expected.status, expected], label);
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || typeof (raw as { token?: unknown }).token !== 'string' || (raw as { token: string }).token === '') continue;
      const { token, ...rest } = raw as Record<string, unknown>;
      const viaGet = await refusal(await fetch(`${server.url}/search/${encodeURIComponent(String(token))}?encoded=${encodeURIComponent(JSON.stringify(rest))}`), `GET ${label}`);
      assert.deepEqual(viaGet, posted, `GET ${label}`);
    }
  });
});
