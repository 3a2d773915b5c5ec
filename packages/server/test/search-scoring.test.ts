/**
 * The ranking formula lives in domains/search/scoring.ts. These tests hold docs/search.md's table of
 * weights to it, and the matcher to it: every match's score, for queries reaching each factor (exact
 * title, phrase, whole word, completion, synonym, typo, several fields and positions), is what the
 * formula gives from the index's own position slots.
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SearchIndex } from '../src/domains/search/index/search-index.js';
import { matchQuery, queryWords } from '../src/domains/search/query/matcher.js';
import { planQuery } from '../src/domains/search/query/query-plan.js';
import { AS_TYPED, COMPLETION_LAST, COMPLETION_OTHER, EXACT_TITLE, SCORING_TABLE, SYNONYM, termScore, TITLE_PHRASE, TYPO } from '../src/domains/search/scoring.js';
import type { StoredItem } from '../src/domains/catalog/types.js';
import { searchConfigurationSchema } from '../src/platform/config/schema.js';

const DOCS = new URL('../../../docs/search.md', import.meta.url);

describe('the table of weights in docs/search.md', () => {
  it('is scoring.ts SCORING_TABLE, row for row', () => {
    const rows = SCORING_TABLE.map(({ name, value, what }) => `| \`${name}\` | ${value} | ${what} |`);
    const expected = ['<!-- scoring-table:start -->', '| weight | value | what it scores |', '|---|---|---|', ...rows, '<!-- scoring-table:end -->'].join('\n');
    const text = readFileSync(DOCS, 'utf8');
    const start = text.indexOf('<!-- scoring-table:start -->');
    const end = text.indexOf('<!-- scoring-table:end -->');
    assert.ok(start >= 0 && end > start, 'docs/search.md marks the table');
    assert.equal(text.slice(start, end + '<!-- scoring-table:end -->'.length), expected, 'docs/search.md holds this block between the markers');
  });
});

const TITLES = ['Lantern', 'Lantern holder', 'Red lantern holder', 'Holder for a red lantern', 'Brass candle'];
const item = (title: string, n: number): StoredItem => ({
  key: `p${n}`,
  id: `p${n}`,
  type: 'product',
  context: '',
  kind: 'product',
  // The candle holds "lantern" in its description only: the lighter field.
  attributes: { title, description: n === 4 ? 'lights a lantern' : '' },
  updated: '2026-01-01T00:00:00Z',
});
const index = new SearchIndex(TITLES.map(item), ['title', 'description']);
const config = searchConfigurationSchema.parse({
  id: 'default',
  fields: [
    { attribute: 'title', weight: 3 },
    { attribute: 'description', weight: 1 },
  ],
  synonyms: [['lamp', 'lantern']],
});
const WEIGHTS = [3, 1];

/** FlexSearch's position slot of `doc` in the lists of `term` in field `field` (undefined: not there). */
function position(field: number, term: string, doc: number): number | undefined {
  const at = index.fieldSlots(field, term).findIndex((list) => list?.includes(doc) === true);
  return at < 0 ? undefined : at;
}

/** The formula's score of one word's term in a document: its best field. */
function wordScore(term: string, factor: number, completion: number, doc: number): number {
  let best = 0;
  for (let field = 0; field < WEIGHTS.length; field++) {
    const at = position(field, term, doc);
    if (at !== undefined) best = Math.max(best, termScore(WEIGHTS[field]!, factor, at) * completion);
  }
  return best;
}

function scores(query: string): Map<string, number> {
  const plan = planQuery(index.vocabulary, config, queryWords(query));
  const matches = matchQuery(index, config, plan.words);
  const out = new Map<string, number>();
  for (let i = 0; i < matches.docs.length; i++) out.set(index.docs[matches.docs[i]!]!.item.title ?? String(index.docs[matches.docs[i]!]!.item.attributes.title), matches.scores[i]!);
  return out;
}

function assertScores(query: string, expected: Record<string, number>): void {
  const got = scores(query);
  assert.deepEqual([...got.keys()].sort(), Object.keys(expected).sort(), `${query}: the matches`);
  for (const [title, score] of Object.entries(expected)) {
    const actual = got.get(title)!;
    assert.ok(Math.abs(actual - score) <= 1e-5 * score, `${query}: ${title} scores ${actual}, the formula ${score}`);
  }
}

const slot = (title: string): number => TITLES.indexOf(title);

describe('the matcher scores as scoring.ts says', () => {
  it('multiplies a title equal to the query by EXACT_TITLE, and weighs fields', () => {
    const whole = (title: string): number => wordScore('lantern', AS_TYPED, 1, slot(title));
    assertScores('lantern', {
      Lantern: EXACT_TITLE * whole('Lantern'),
      'Lantern holder': whole('Lantern holder'),
      'Red lantern holder': whole('Red lantern holder'),
      'Holder for a red lantern': whole('Holder for a red lantern'),
      'Brass candle': whole('Brass candle'),
    });
    // The description's weight is a third of the title's: the candle's score says the field.
    assert.ok(scores('lantern').get('Brass candle')! < scores('lantern').get('Lantern holder')! / 2);
  });

  it('adds the words up, then multiplies by EXACT_TITLE or TITLE_PHRASE', () => {
    const sum = (title: string): number => wordScore('lantern', AS_TYPED, 1, slot(title)) + wordScore('holder', AS_TYPED, 1, slot(title));
    assertScores('lantern holder', {
      'Lantern holder': EXACT_TITLE * sum('Lantern holder'),
      'Red lantern holder': TITLE_PHRASE * sum('Red lantern holder'),
      'Holder for a red lantern': sum('Holder for a red lantern'),
    });
  });

  it('gives completions COMPLETION_LAST, or COMPLETION_OTHER before another word', () => {
    const last = (title: string): number => wordScore('lant', AS_TYPED, COMPLETION_LAST, slot(title));
    assertScores('lant', { Lantern: last('Lantern'), 'Lantern holder': last('Lantern holder'), 'Red lantern holder': last('Red lantern holder'), 'Holder for a red lantern': last('Holder for a red lantern'), 'Brass candle': last('Brass candle') });
    const earlier = (title: string): number => wordScore('lant', AS_TYPED, COMPLETION_OTHER, slot(title)) + wordScore('holder', AS_TYPED, 1, slot(title));
    assertScores('lant holder', { 'Lantern holder': earlier('Lantern holder'), 'Red lantern holder': earlier('Red lantern holder'), 'Holder for a red lantern': earlier('Holder for a red lantern') });
  });

  it('gives a synonym SYNONYM and a typo correction TYPO', () => {
    for (const [query, factor] of [['lamp', SYNONYM], ['lantren', TYPO]] as const) {
      const of = (title: string): number => wordScore('lantern', factor, 1, slot(title));
      assertScores(query, { Lantern: of('Lantern'), 'Lantern holder': of('Lantern holder'), 'Red lantern holder': of('Red lantern holder'), 'Holder for a red lantern': of('Holder for a red lantern'), 'Brass candle': of('Brass candle') });
    }
  });
});
