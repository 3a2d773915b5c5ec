/**
 * The generated benchmark catalog's products ("vintage red hanging heart"), shared by the search
 * benchmark and the relevance set judged on it: the same number always gives the same product.
 */

export const ADJECTIVES = ['vintage', 'classic', 'modern', 'rustic', 'elegant', 'cosy', 'bright', 'sturdy', 'gentle', 'little', 'giant', 'soft', 'woven', 'painted', 'glass', 'wooden', 'ceramic', 'linen', 'cotton', 'leather'];
export const COLOURS = ['red', 'blue', 'green', 'white', 'black', 'pink', 'ivory', 'silver', 'golden', 'purple', 'orange', 'yellow', 'brown'];
export const NOUNS = ['heart', 'lantern', 'candle', 'holder', 'mug', 'teapot', 'cushion', 'blanket', 'basket', 'frame', 'mirror', 'clock', 'garland', 'bunting', 'doormat', 'notebook', 'pencil', 'umbrella', 'shopper', 'wallet', 'bottle', 'jar', 'bowl', 'plate', 'spoon', 'apron', 'towel', 'lamp', 'shade', 'vase', 'planter', 'sign', 'hook', 'drawer', 'knob', 'trinket', 'box', 'tin', 'bag', 'purse'];
export const EXTRAS = ['hanging', 'decoration', 'christmas', 'party', 'garden', 'kitchen', 'bathroom', 'travel', 'children', 'wedding', 'birthday', 'retro', 'spotty', 'stripy', 'floral', 'paisley', 'regency', 'edwardian', 'victorian', 'scandi'];
export const BRANDS = Array.from({ length: 200 }, (_, i) => `${ADJECTIVES[i % 20]!.replace(/^./, (c) => c.toUpperCase())} ${['Home', 'Studio', 'Works', 'Living', 'Goods', 'Crafts', 'Trading', 'House', 'Company', 'Originals'][i % 10]}`);
export const CATEGORIES = ['Home', 'Kitchen', 'Gifts', 'Christmas', 'Garden', 'Stationery', 'Bags', 'Lighting', 'Textiles', 'Party'];

/** A small deterministic generator, so every run measures the same catalog and queries. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
export const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

export function product(n: number): Record<string, string | number> {
  const r = rng(n + 1);
  const title = `${pick(r, ADJECTIVES)} ${pick(r, COLOURS)} ${pick(r, EXTRAS)} ${pick(r, NOUNS)}`;
  return {
    title,
    description: `A ${pick(r, ADJECTIVES)} ${pick(r, NOUNS)} for the ${pick(r, EXTRAS)} ${pick(r, NOUNS)}, made in ${pick(r, COLOURS)} ${pick(r, ADJECTIVES)} material.`,
    brand: pick(r, BRANDS),
    categories: `${pick(r, CATEGORIES)}, ${pick(r, CATEGORIES)}`,
    color: pick(r, COLOURS),
    price: 100 + Math.floor(r() * 5_000),
    popularity: Math.floor(r() * 1_000),
    in_stock: r() < 0.8 ? 1 : 0,
  };
}


/** Items `start` to `start + size - 1`: every fourth one a variant ("large red") of the product before it. */
export function batchOf(start: number, version: number, size: number): unknown[] {
  return Array.from({ length: size }, (_, i) => {
    const n = start + i;
    return n % 4 === 3
      ? { id: `v${n}`, catalogVersion: version, type: 'variant', parentId: `p${n - 1}`, attributes: { title: `${pick(rng(n), ['small', 'medium', 'large'])} ${pick(rng(n + 7), COLOURS)}` } }
      : { id: `p${n}`, catalogVersion: version, type: 'product', attributes: product(n) };
  });
}

/** The schema the generated items follow. */
export const GENERATED_SCHEMA = {
  name: 'product',
  attributes: [
    ...['title', 'description', 'brand', 'categories', 'color'].map((name) => ({ name, type: 'TEXT' })),
    ...['price', 'popularity', 'in_stock'].map((name) => ({ name, type: 'INTEGER' })),
  ],
  nestedItemSchemas: [{ name: 'variant', attributes: [{ name: 'title', type: 'TEXT' }] }],
};

/** A configuration file's content with one tenant, one environment and one search token over the generated catalog. */
export function generatedSearchConfig(tenant: string, environment: string, token: string): Record<string, unknown> {
  return {
    tenants: [
      {
        id: tenant,
        environments: [
          {
            id: environment,
            searchTokens: [
              {
                token,
                configurations: [
                  {
                    id: 'default',
                    fields: [
                      { attribute: 'title', weight: 3 },
                      { attribute: 'brand', weight: 2 },
                      { attribute: 'categories', weight: 1.5 },
                      { attribute: 'description', weight: 1 },
                    ],
                    facets: [
                      { id: 'category', title: 'Category', attribute: 'categories' },
                      { id: 'brand', title: 'Brand', attribute: 'brand' },
                      { id: 'color', title: 'Colour', attribute: 'color' },
                      { id: 'price', title: 'Price', attribute: 'price', type: 'range', ranges: [{ label: 'low', to: 1000 }, { label: 'mid', from: 1000, to: 3000 }, { label: 'high', from: 3000 }] },
                    ],
                    defaultSort: [{ attribute: 'popularity', order: 'desc' }],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

/** The search bench's queries: colour + noun, adjective + a noun's prefix, three words, and three-letter prefixes, a quarter each. */
export function benchQueries(count: number, seed: number): string[] {
  const r = rng(seed);
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const noun = pick(r, NOUNS);
    const kind = i % 4;
    if (kind === 0) queries.push(`${pick(r, COLOURS)} ${noun}`);
    else if (kind === 1) queries.push(`${pick(r, ADJECTIVES)} ${noun.slice(0, Math.max(2, noun.length - 2))}`);
    else if (kind === 2) queries.push(`${pick(r, EXTRAS)} ${pick(r, COLOURS)} ${noun}`);
    else queries.push(pick(r, [...EXTRAS, ...NOUNS]).slice(0, 3));
  }
  return queries;
}

