/** The widget editor's filter rows: the filters a widget has read as rows, and rows written back as the same filters. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toFilters, toRows } from '../src/widget-filters.js';

describe('widget filter rows', () => {
  it('reads sameAs and single comparisons as rows, and writes them back unchanged', () => {
    const filters = [{ sameAs: 'brand' }, { where: 'price < $price' }, { where: 'color = "Red"' }, { where: 'in_stock = true' }];
    const rows = toRows(filters);
    assert.deepEqual(rows, [
      { kind: 'same', attribute: 'brand' },
      { kind: 'compare', attribute: 'price', operator: '<', value: '$price' },
      { kind: 'compare', attribute: 'color', operator: '=', value: 'Red' },
      { kind: 'compare', attribute: 'in_stock', operator: '=', value: 'true' },
    ]);
    assert.deepEqual(toFilters(rows), filters);
  });

  it('keeps an expression of several comparisons as its text', () => {
    const filters = [{ where: 'price < 3000 AND in_stock = true' }];
    assert.deepEqual(toRows(filters), [{ kind: 'text', where: 'price < 3000 AND in_stock = true' }]);
    assert.deepEqual(toFilters(toRows(filters)), filters);
  });

  it('quotes a text value, escapes its quotes, and drops rows left empty', () => {
    assert.deepEqual(toFilters([{ kind: 'compare', attribute: 'brand', operator: '!=', value: 'Say "hi"' }, { kind: 'compare', attribute: 'price', operator: '<', value: ' ' }, { kind: 'same', attribute: '' }]), [{ where: 'brand != "Say \\"hi\\""' }]);
  });
});
