/**
 * Judged queries on the generated benchmark catalog (generated-catalog.ts): titles are
 * "<adjective> <colour> <extra> <noun>". A query names at most two of those four, so that even the
 * test's 15,000 products hold more than a page of true answers for each (three would leave one or two).
 */
import type { JudgedQuery } from './judge.js';

const q = (kind: string, query: string, ...concepts: string[]): JudgedQuery => ({ query, concepts, kind });

export const GENERATED_QUERIES: JudgedQuery[] = [
  q('plural', 'lanterns', 'lantern'),
  q('plural', 'red mugs', 'red', 'mug'),
  q('plural', 'boxes', 'box'),
  q('plural', 'candles', 'candle'),
  q('plural', 'wooden bowls', 'wooden', 'bowl'),
  q('plural', 'christmas bowls', 'christmas', 'bowl'),
  q('plural', 'parties', 'party'),
  q('plural', 'blue notebooks', 'blue', 'notebook'),
  q('plural', 'knobs', 'knob'),
  q('plural', 'glass jars', 'glass', 'jar'),
  q('swap', 'lantren', 'lantern'),
  q('swap', 'cushoin', 'cushion'),
  q('swap', 'umbrlela', 'umbrella'),
  q('swap', 'vintgae red', 'vintage', 'red'),
  q('swap', 'edwradian clock', 'edwardian', 'clock'),
  q('swap', 'bwol', 'bowl'),
  q('typo', 'hanging hart', 'hanging', 'heart'),
  q('typo', 'plannter', 'planter'),
  q('typo', 'victorain mirror', 'victorian', 'mirror'),
  q('typo', 'golden baskt', 'golden', 'basket'),
  q('typo', 'purpel vase', 'purple', 'vase'),
  q('split', 'door mat', 'doormat'),
  q('split', 'note book', 'notebook'),
  q('split', 'tea pot', 'teapot'),
  q('split', 'red door mat', 'red', 'doormat'),
  q('join', 'ivorylamp', 'ivory', 'lamp'),
  q('prefix', 'lant', 'lantern'),
  q('prefix', 'vint', 'vintage'),
  q('prefix', 'pink cush', 'pink', 'cushion'),
  q('prefix', 'rustic gre', 'rustic', 'green'),
  q('prefix', 'umbr', 'umbrella'),
  q('words', 'vintage heart', 'vintage', 'heart'),
  q('words', 'wooden box', 'wooden', 'box'),
  q('words', 'christmas candle', 'christmas', 'candle'),
  q('words', 'pink scandi', 'pink', 'scandi'),
  q('words', 'garden planter', 'garden', 'planter'),
  q('words', 'kitchen apron', 'kitchen', 'apron'),
  q('words', 'silver frame', 'silver', 'frame'),
  q('words', 'spotty bag', 'spotty', 'bag'),
  q('words', 'rustic golden', 'rustic', 'golden'),
  q('words', 'linen cushion', 'linen', 'cushion'),
];
