/**
 * The widget editor's filters as rows a merchandiser builds from an attribute, an operator and a
 * value (or a `$variable` the page passes), instead of JSON: "same as the product shown" is
 * `{ sameAs }`, a comparison is `{ where: "<attribute> <operator> <value>" }`. A `where` that is more
 * than one comparison stays as its text, editable as such.
 */
import { html } from 'lit';
import type { WidgetFilter } from '@discovery-kit/protocol';

export const OPERATORS = ['=', '!=', '<', '<=', '>', '>='] as const;
export type Operator = (typeof OPERATORS)[number];

export type FilterRow = { kind: 'same'; attribute: string } | { kind: 'compare'; attribute: string; operator: Operator; value: string } | { kind: 'text'; where: string };

/** Attributes every demo product has; others can be typed. */
const COMMON_ATTRIBUTES = ['brand', 'categories', 'color', 'price', 'in_stock'];
const COMPARISON = /^\s*([A-Za-z_][\w.]*)\s*(!=|<=|>=|=|<|>)\s*(.+?)\s*$/;

export function toRows(filters: readonly WidgetFilter[]): FilterRow[] {
  return filters.map((filter): FilterRow => {
    if ('sameAs' in filter) return { kind: 'same', attribute: filter.sameAs };
    const match = COMPARISON.exec(filter.where);
    // One comparison only: "a = 1 AND b = 2" would match with a value of "1 AND b = 2".
    if (match === null || /\b(AND|OR|NOT)\b/i.test(match[3]!)) return { kind: 'text', where: filter.where };
    const raw = match[3]!;
    const value = /^"(.*)"$/.test(raw) ? raw.slice(1, -1).replace(/\\"/g, '"') : raw;
    return { kind: 'compare', attribute: match[1]!, operator: match[2] as Operator, value };
  });
}

/** A value as the filter language takes it: numbers, booleans and `$variables` bare, anything else quoted. */
function literal(value: string): string {
  const v = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(v) || v === 'true' || v === 'false' || /^\$[A-Za-z_]\w*$/.test(v)) return v;
  return `"${v.replace(/"/g, '\\"')}"`;
}

export function toFilters(rows: readonly FilterRow[]): WidgetFilter[] {
  return rows.flatMap((row): WidgetFilter[] => {
    if (row.kind === 'same') return row.attribute.trim() === '' ? [] : [{ sameAs: row.attribute.trim() }];
    if (row.kind === 'text') return row.where.trim() === '' ? [] : [{ where: row.where.trim() }];
    return row.attribute.trim() === '' || row.value.trim() === '' ? [] : [{ where: `${row.attribute.trim()} ${row.operator} ${literal(row.value)}` }];
  });
}

/** The rows as form fields; `change` gets the rows after an edit. */
export function filterRowsView(rows: readonly FilterRow[], change: (rows: FilterRow[]) => void) {
  const edit = (index: number, next: FilterRow) => change(rows.map((row, i) => (i === index ? next : row)));
  const valueOf = (event: Event) => (event.target as HTMLInputElement | HTMLSelectElement).value;
  return html`<fieldset class="filter-rows"><legend>Filters: only recommend products that…</legend>
    <datalist id="filter-attributes">${COMMON_ATTRIBUTES.map((a) => html`<option value=${a}></option>`)}</datalist>
    <ol>
      ${rows.map((row, i) => {
        const n = i + 1;
        const kind = html`<label for="f-kind-${n}">Filter ${n}</label>
          <select id="f-kind-${n}" @change=${(e: Event) => edit(i, valueOf(e) === 'same' ? { kind: 'same', attribute: 'brand' } : valueOf(e) === 'text' ? { kind: 'text', where: '' } : { kind: 'compare', attribute: 'price', operator: '<', value: '' })}>
            <option value="same" ?selected=${row.kind === 'same'}>share with the product shown</option>
            <option value="compare" ?selected=${row.kind === 'compare'}>have an attribute that is</option>
            <option value="text" ?selected=${row.kind === 'text'}>match an expression</option>
          </select>`;
        const fields =
          row.kind === 'same'
            ? html`<label for="f-attr-${n}">Attribute</label><input id="f-attr-${n}" list="filter-attributes" .value=${row.attribute} @change=${(e: Event) => edit(i, { ...row, attribute: valueOf(e) })} />`
            : row.kind === 'text'
              ? html`<label for="f-where-${n}">Expression</label><input id="f-where-${n}" .value=${row.where} placeholder="price < 3000 AND in_stock = true" @change=${(e: Event) => edit(i, { ...row, where: valueOf(e) })} />`
              : html`<label for="f-attr-${n}">Attribute</label><input id="f-attr-${n}" list="filter-attributes" .value=${row.attribute} @change=${(e: Event) => edit(i, { ...row, attribute: valueOf(e) })} />
                  <label for="f-op-${n}">Operator</label>
                  <select id="f-op-${n}" @change=${(e: Event) => edit(i, { ...row, operator: valueOf(e) as Operator })}>${OPERATORS.map((op) => html`<option ?selected=${op === row.operator}>${op}</option>`)}</select>
                  <label for="f-value-${n}">Value or $variable</label><input id="f-value-${n}" .value=${row.value} placeholder="3000 or $price" @change=${(e: Event) => edit(i, { ...row, value: valueOf(e) })} />`;
        return html`<li data-filter-row=${n}>${kind}${fields}<button type="button" class="danger" aria-label="Remove filter ${n}" @click=${() => change(rows.filter((_, j) => j !== i))}>Remove</button></li>`;
      })}
    </ol>
    <button type="button" class="secondary" @click=${() => change([...rows, { kind: 'same', attribute: 'brand' }])}>Add a filter</button>
  </fieldset>`;
}
