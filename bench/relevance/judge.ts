/**
 * The judgment behind our relevance sets, written apart from the engine so that it cannot agree with
 * the engine by construction: a result answers a query when its title holds every concept of the
 * query, in any simple inflection (mug, mugs; box, boxes; party, parties) and written joined or split
 * (doormat, door mat; t-light, t light). A concept lists its accepted wordings with "|" ("christmas|xmas").
 * Precision of a query is the share of its first page that answers it; an empty page scores 0.
 */

export interface JudgedQuery {
  query: string;
  /** What the shopper is after: every concept must be in the title. */
  concepts: string[];
  /** What kind of query it is, for the per-kind figures: plural, swap, typo, split, join, prefix, words. */
  kind: string;
}

export interface QueryOutcome {
  query: string;
  kind: string;
  returned: number;
  precision: number;
  /** Titles of the first page judged not to answer the query, for a reader chasing a low figure. */
  misses: string[];
}

export interface SetOutcome {
  mean: number;
  empty: string[];
  byKind: Record<string, number>;
  queries: QueryOutcome[];
}

function tokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

/** A crude English singular, the same on both sides: enough to treat "boxes" and "box" as one word. */
function lemma(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|xes|sses|zes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function holdsWording(titleLemmas: string[], titleJoins: Set<string>, wording: string): boolean {
  const want = tokens(wording).map(lemma);
  if (want.length === 0) return false;
  // The words in a row.
  for (let i = 0; i + want.length <= titleLemmas.length; i++) if (want.every((w, j) => titleLemmas[i + j] === w)) return true;
  // Joined or split: "door mat" in "Doormat", "doormat" in "Door Mat".
  return titleJoins.has(lemma(tokens(wording).join('')));
}

export function answers(title: string, concepts: readonly string[]): boolean {
  const raw = tokens(title);
  const titleLemmas = raw.map(lemma);
  const titleJoins = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    titleJoins.add(lemma(raw[i]!));
    if (i + 1 < raw.length) titleJoins.add(lemma(raw[i]! + raw[i + 1]!));
  }
  return concepts.every((concept) => concept.split('|').some((wording) => holdsWording(titleLemmas, titleJoins, wording)));
}

/** Runs every query through `search` (titles of its first page) and judges the pages. */
export async function judgeSet(queries: readonly JudgedQuery[], search: (query: string) => Promise<string[]>): Promise<SetOutcome> {
  const outcomes: QueryOutcome[] = [];
  for (const { query, concepts, kind } of queries) {
    const titles = await search(query);
    const good = titles.filter((t) => answers(t, concepts));
    outcomes.push({ query, kind, returned: titles.length, precision: titles.length === 0 ? 0 : good.length / titles.length, misses: titles.filter((t) => !answers(t, concepts)) });
  }
  const mean = (list: QueryOutcome[]): number => Math.round((list.reduce((n, o) => n + o.precision, 0) / Math.max(1, list.length)) * 1000) / 1000;
  const byKind: Record<string, number> = {};
  for (const kind of new Set(outcomes.map((o) => o.kind))) byKind[kind] = mean(outcomes.filter((o) => o.kind === kind));
  return { mean: mean(outcomes), empty: outcomes.filter((o) => o.returned === 0).map((o) => o.query), byKind, queries: outcomes };
}
