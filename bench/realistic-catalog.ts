/**
 * A catalog with a realistic vocabulary for the search benchmark: 100,000 products whose text is made
 * of a real gift shop's product titles (the UCI "Online Retail" data set, CC BY 4.0, Chen, Sain and
 * Guo 2012, read from ../shared/data/ when present). Each product is one real title plus a real title
 * word, its description two other real titles, so words keep their real frequencies: a query word
 * matches tens or hundreds of items, not a quarter of the catalog as on the small generated vocabulary.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { BRANDS, CATEGORIES, COLOURS, pick, rng } from './relevance/generated-catalog.js';

/** The data set: RETAIL_DATA, or its usual place beside the project's checkout (../shared/data/, from a worktree ../../shared/data/). */
export const RETAIL_DATA =
  [process.env.RETAIL_DATA, ...['../../shared/data/', '../../../shared/data/'].map((dir) => fileURLToPath(new URL(`${dir}online-retail.csv.gz`, import.meta.url)))].find(
    (file): file is string => file !== undefined && existsSync(file),
  ) ?? 'online-retail.csv.gz';

export interface RealisticCatalog {
  /** Product `n` of the catalog, as the catalog API's item attributes. */
  product(n: number): Record<string, string | number>;
  /** Items `start` to `start + size - 1`, in the catalog API's batch form. */
  batchOf(start: number, version: number, size: number): unknown[];
  /** Search queries as shoppers type them: real title words, two-word phrases, prefixes being typed. */
  queries(count: number, seed: number): string[];
  /** Distinct real titles and title words the catalog is made of. */
  titles: number;
  words: number;
}

/** The data set's distinct product titles, in the case a shop would show them; undefined when the file is absent. */
export function retailTitles(file = RETAIL_DATA): string[] | undefined {
  if (!existsSync(file)) return undefined;
  const text = gunzipSync(readFileSync(file)).toString('utf8');
  const titles = new Set<string>();
  // InvoiceNo, StockCode, then the quoted Description (a doubled quote stands for one).
  const row = /^"[^"]*","[^"]*","((?:[^"]|"")+)"/;
  for (const line of text.split('\n')) {
    const match = row.exec(line);
    if (match === null) continue;
    const title = match[1]!.replace(/""/g, '"').trim().replace(/\s+/g, ' ');
    if (/[a-z]/i.test(title) && title === title.toUpperCase()) titles.add(title.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase()));
  }
  return [...titles].sort();
}

export function realisticCatalog(titles: readonly string[]): RealisticCatalog {
  const words = [...new Set(titles.flatMap((t) => t.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3)))].sort();
  const product = (n: number): Record<string, string | number> => {
    const r = rng(n + 11);
    const base = titles[n % titles.length]!;
    return {
      title: `${base} ${pick(r, words).replace(/^./, (c) => c.toUpperCase())}`,
      description: `${pick(r, titles)}. ${pick(r, titles)}.`,
      brand: pick(r, BRANDS),
      categories: `${pick(r, CATEGORIES)}, ${pick(r, CATEGORIES)}`,
      color: pick(r, COLOURS),
      price: 100 + Math.floor(r() * 5_000),
      popularity: Math.floor(r() * 1_000),
      in_stock: r() < 0.8 ? 1 : 0,
    };
  };
  return {
    product,
    batchOf: (start, version, size) =>
      Array.from({ length: size }, (_, i) => {
        const n = start + i;
        return n % 4 === 3
          ? { id: `v${n}`, catalogVersion: version, type: 'variant', parentId: `p${n - 1}`, attributes: { title: `${pick(rng(n), ['small', 'medium', 'large'])} ${pick(rng(n + 7), COLOURS)}` } }
          : { id: `p${n}`, catalogVersion: version, type: 'product', attributes: product(n) };
      }),
    queries: (count, seed) => {
      const r = rng(seed);
      return Array.from({ length: count }, (_, i) => {
        const title = pick(r, titles).toLowerCase().split(' ').filter((w) => /^[a-z]{3,}$/.test(w));
        const first = title[Math.floor(r() * title.length)] ?? pick(r, words);
        const second = title.find((w) => w !== first) ?? pick(r, words);
        const kind = i % 4;
        if (kind === 0) return `${first} ${second}`;
        if (kind === 1) return `${first} ${second.slice(0, Math.max(2, second.length - 2))}`;
        if (kind === 2) return first;
        return first.slice(0, 3);
      });
    },
    titles: titles.length,
    words: words.length,
  };
}
