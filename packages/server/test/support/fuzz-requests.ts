/**
 * Seeded random requests against every public endpoint (and the private ones without a token): valid
 * shapes bent in every way a client or an attacker might bend them. The suite sends a few thousand;
 * `npm run bench -- fuzz` sends 100,000. The only promise checked is the server's: never a 5xx.
 */

export type Random = () => number;

/** mulberry32: small, fast and seedable, so a failure reproduces from its seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const pick = <T>(rng: Random, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

const NASTY_STRINGS = ['', ' ', '\u0000', '__proto__', 'constructor', 'toString', '../../etc/passwd', '%00', '%E0%A4%A', '\ud800', 'é'.repeat(300), 'x'.repeat(5000), '<script>alert(1)</script>', 'javascript:alert(1)', '/\\evil.example', '//evil.example', '"\'`', '*', '\\', 'NaN', '-1', '1e308', 'null', '{}', '[]'];

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** A random JSON value; `budget` keeps the size of one value small. */
function anyValue(rng: Random, budget = 3): unknown {
  const roll = rng();
  if (roll < 0.15) return pick(rng, NASTY_STRINGS);
  if (roll < 0.25) return pick(rng, [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER]);
  if (roll < 0.3) return pick(rng, [true, false, null]);
  if (roll < 0.35) return nested(pick(rng, [10, 40, 200, 800]), 'deep', rng() < 0.5);
  if (roll < 0.38) return Array.from({ length: pick(rng, [100, 5000, 20000]) }, (_, i) => i);
  if (budget <= 0) return `s${Math.floor(rng() * 1000)}`;
  if (roll < 0.7) {
    const out: Record<string, unknown> = {};
    for (let i = 0, n = Math.floor(rng() * 4); i < n; i++) out[pick(rng, ['id', 'type', 'value', 'query', 'name', '__proto__', 'constructor', `k${i}`])] = anyValue(rng, budget - 1);
    return out;
  }
  return Array.from({ length: Math.floor(rng() * 4) }, () => anyValue(rng, budget - 1));
}

/** With some probability, replaces the value at a random key of a valid body with something else. */
function bend(rng: Random, value: unknown, depth = 0): unknown {
  if (rng() < 0.25 || depth > 4) return anyValue(rng);
  if (Array.isArray(value)) return value.map((v) => (rng() < 0.5 ? bend(rng, v, depth + 1) : v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of Object.keys(out)) if (rng() < 0.4) out[key] = bend(rng, out[key], depth + 1);
    if (rng() < 0.1) delete out[pick(rng, Object.keys(out).concat('x'))];
    return out;
  }
  return value;
}

function filterText(rng: Random): string {
  return pick(rng, [
    `${'('.repeat(4000)}a = 1${')'.repeat(4000)}`,
    `${'NOT '.repeat(2000)}a = 1`,
    Array.from({ length: 500 }, () => 'price > 1').join(' AND '),
    'brand IN (' + Array.from({ length: 1000 }, (_, i) => `"b${i}"`).join(',') + ')',
    'a = ',
    '"unterminated',
    'price >= 10 AND in_stock = true',
    pick(rng, NASTY_STRINGS),
  ]);
}

/** Valid-looking bodies for each endpoint, before bending. */
function baseSearch(rng: Random, tenant: string): Record<string, unknown> {
  return {
    token: rng() < 0.9 ? `${tenant}-search` : pick(rng, NASTY_STRINGS),
    query: rng() < 0.7 ? pick(rng, ['shoe', 'red bag', 'ca', '', 'zzzz', 'é']) : pick(rng, NASTY_STRINGS),
    options: {
      limit: pick(rng, [0, 5, 10, 1000, 100000]),
      offset: pick(rng, [0, 10, 9999, 10001]),
      ...(rng() < 0.3 ? { filter: filterText(rng) } : {}),
      ...(rng() < 0.3 ? { sortBy: Array.from({ length: pick(rng, [1, 3, 10000]) }, (_, i) => ({ attribute: `attr${i}`, order: pick(rng, ['asc', 'desc']) })) } : {}),
      ...(rng() < 0.2 ? { facets: [{ id: pick(rng, ['brand', 'x']), values: ['a'] }] } : {}),
      ...(rng() < 0.2 ? { customResponseMask: pick(rng, ['items(id)', '((((', 'a,b,c', '']) } : {}),
      ...(rng() < 0.1 ? { unknownOption: nested(800, 1, false) } : {}),
    },
  };
}

function baseCollect(rng: Random): unknown {
  const one = () => ({
    id: `f${Math.floor(rng() * 1e9)}`,
    action: pick(rng, ['view', 'add-to-cart', 'purchase', 'identify', 'x']),
    target: { product: `item-${Math.floor(rng() * 50)}` },
    user: rng() < 0.8 ? { sessionId: `fz-${Math.floor(rng() * 200)}` } : { identities: { 'customer-id': `c${Math.floor(rng() * 50)}` } },
    ...(rng() < 0.2 ? { traits: nested(pick(rng, [5, 800]), 'x', false) } : {}),
  });
  return rng() < 0.5 ? one() : Array.from({ length: pick(rng, [1, 3, 50]) }, one);
}

function baseTracker(rng: Random, kind: 'identify' | 'activity'): unknown {
  if (kind === 'identify') {
    return { profile: { ...(rng() < 0.5 ? { id: `p_${Math.floor(rng() * 100)}` } : {}), datasources: [{ id: 'crm', original_id: `u${Math.floor(rng() * 100)}` }], infos: rng() < 0.3 ? nested(pick(rng, [3, 800]), 'i', false) : { name: 'x' } } };
  }
  return { profile: `p_${Math.floor(rng() * 100)}`, verb: pick(rng, ['view', 'buy', 'Bad Verb']), original_id: `item-${Math.floor(rng() * 50)}`, id: `t${Math.floor(rng() * 1e9)}` };
}

/** Percent-encodes, or sends malformed escapes as they are: a path may carry either. */
function pathPart(rng: Random): string {
  if (rng() < 0.1) return pick(rng, ['%E0%A4%A', '%ED%A0%80', '%', '%00', '..%2F..']);
  const text = pick(rng, NASTY_STRINGS.concat(['p_1', 'item-1']));
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80'; // a lone surrogate has no UTF-8 form: send the bytes it would take
  }
}

export function fuzzRequest(rng: Random, prefix = ''): FuzzRequest {
  const tenant = pick(rng, ['tenant-a', 'tenant-b', 'nope']);
  // Deeper values than JSON.stringify can write are spliced in as text: `{"x":` nested thousands of times.
  const deep = (key: string) => `"${key}":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
  const json = (body: unknown) => {
    const roll = rng();
    if (roll < 0.03) return '{"truncated": [1, 2';
    const text = JSON.stringify(bend(rng, body));
    if (roll < 0.06 && text.startsWith('{') && text.length > 2) return `{${deep(pick(rng, ['infos', 'traits', 'options', 'profile', 'x']))},${text.slice(1)}`;
    return text;
  };
  const contentType = rng() < 0.95 ? 'application/json' : pick(rng, ['text/plain', 'application/x-www-form-urlencoded', 'image/png', '']);
  const headers: Record<string, string> = contentType === '' ? {} : { 'content-type': contentType };
  const text = pathPart(rng);
  const route = Math.floor(rng() * 14);
  switch (route) {
    case 0:
    case 1:
      return { method: 'POST', path: `${prefix}/search`, headers, body: json(baseSearch(rng, tenant)) };
    case 2:
      return { method: 'POST', path: `${prefix}/search/autocomplete`, headers, body: json({ token: `${tenant}-search`, query: pick(rng, ['sh', '', 'x'.repeat(2000)]) }) };
    case 3:
      return { method: 'POST', path: `${prefix}/search/suggest`, headers, body: json({ ...baseSearch(rng, tenant), options: { groupBy: { attribute: 'brand', size: 3 } } }) };
    case 4:
      return { method: 'GET', path: `${prefix}/search/${tenant}-search?encoded=${encodeURIComponent(JSON.stringify(bend(rng, baseSearch(rng, tenant))).replace(/[\ud800-\udfff]/g, '?'))}`, headers: {} };
    case 5:
    case 6:
      return { method: 'POST', path: `${prefix}/collect/${tenant}-tracker`, headers, body: json(baseCollect(rng)) };
    case 7:
      return { method: 'POST', path: `${prefix}/tracker/${tenant}-tracker/identify`, headers, body: json(baseTracker(rng, 'identify')) };
    case 8:
      return { method: 'POST', path: `${prefix}/tracker/${tenant}-tracker/activity`, headers, body: json(baseTracker(rng, 'activity')) };
    case 9:
      return { method: 'GET', path: `${prefix}/tracker/${tenant}-tracker/profiles/${text}/activities?type=${text}`, headers: {} };
    case 10:
      return { method: 'GET', path: `${prefix}/widget/${tenant}-popular/recommendations/${text}?limit=${pick(rng, ['5', '-1', '1e9', 'x'])}&where=${text}`, headers: {} };
    case 11:
      return { method: 'GET', path: `${prefix}/widget/multi/${tenant}-popular,${text}/recommendations/${text}`, headers: {} };
    case 12:
      return { method: 'POST', path: `${prefix}/auth/realms/${tenant}/protocol/openid-connect/token`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=${text}&client_id=${text}` };
    default:
      return { method: pick(rng, ['POST', 'PUT', 'PATCH', 'DELETE', 'GET']), path: `${prefix}${pick(rng, ['/catalog/items', '/catalog/catalogs', '/items', '/items/contexts', '/catalog/item-schemas'])}`, headers: { ...headers, authorization: pick(rng, ['Bearer x', 'Basic y', '']) }, body: json({ items: [{ id: 'x' }] }) };
  }
}
