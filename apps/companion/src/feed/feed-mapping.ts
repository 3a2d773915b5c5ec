/**
 * From feed records to catalog items: renames columns (`--map title=Description`), understands
 * Google Merchant Center fields (price "15.00 USD", availability, item_group_id), validates each
 * record naming its line and field, and infers the attribute types the catalog API takes (TEXT and
 * INTEGER) unless a schema is given.
 */
import { catalogUrl } from '@discovery-kit/server';
import type { FeedRecord } from './feed-records.js';

export type AttributeType = 'TEXT' | 'INTEGER';

/** Merchant Center field names and the names the companion's search and widgets read. */
const MERCHANT_NAMES: Record<string, string> = {
  link: 'url',
  image_link: 'photo',
  product_type: 'categories',
  availability: 'in_stock',
  google_product_category: 'google_category',
};

/** Prices are stored in minor units (pence, cents), as INTEGER attributes. */
const MONEY = new Set(['price', 'sale_price']);
/** Attributes a storefront puts in an `href` or `src`: they follow the catalog's one URL rule. */
const URLS = new Set(['url', 'photo', 'image']);
const MAX_TEXT = 65_536;
const MAX_ID = 256;

export interface MappingOptions {
  /** target name → source column, applied before anything else. */
  columns: Record<string, string>;
  /** Keep only mapped columns (and Merchant fields renamed above) instead of every column. */
  onlyMapped?: boolean;
  /** Currency of prices that do not name one ("2.55" rather than "2.55 GBP"). */
  currency?: string;
}

export interface FeedItem {
  line: number;
  id: string;
  /** Merchant's item_group_id: the variants of one product share it. */
  groupId?: string;
  attributes: Record<string, string | number>;
}

export interface FeedIssue {
  line: number;
  field: string;
  message: string;
}

/** Lowercase, underscores: "Image Link" and "image_link" are one attribute. */
export function attributeName(column: string): string {
  return column
    .trim()
    .toLowerCase()
    .replace(/^g:/, '')
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** "15.00 USD", "15 USD", "2.55" → 1500 / 255 in minor units, and the currency when named. */
export function parseMoney(text: string): { amount: number; currency?: string } | undefined {
  const match = /^\s*(?:([A-Z]{3})\s+)?(-?\d+(?:\.\d{1,3})?)\s*(?:([A-Z]{3}))?\s*$/.exec(text);
  if (match === null) return undefined;
  const amount = Math.round(Number(match[2]) * 100);
  if (!Number.isSafeInteger(amount)) return undefined;
  const currency = match[1] ?? match[3];
  return currency === undefined ? { amount } : { amount, currency };
}

function availability(text: string): number | undefined {
  const value = text.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (['in_stock', 'preorder', 'backorder', 'true', 'yes', '1'].includes(value)) return 1;
  if (['out_of_stock', 'discontinued', 'false', 'no', '0'].includes(value)) return 0;
  return undefined;
}

/** Maps and checks one record; returns the item, or the issues that keep it out. */
export function mapRecord(record: FeedRecord, options: MappingOptions): { item?: FeedItem; issues: FeedIssue[] } {
  const issues: FeedIssue[] = [];
  const source = record.fields;
  const named: Record<string, string> = {};
  const mappedSources = new Set(Object.values(options.columns));
  for (const [target, column] of Object.entries(options.columns)) {
    if (!(column in source)) issues.push({ line: record.line, field: column, message: `column "${column}" (mapped to ${target}) is not in the file` });
    else named[attributeName(target)] = source[column]!;
  }
  for (const [column, value] of Object.entries(source)) {
    if (mappedSources.has(column)) continue;
    const plain = attributeName(column);
    const name = MERCHANT_NAMES[plain] ?? plain;
    if (options.onlyMapped === true && !(plain in MERCHANT_NAMES) && !['id', 'item_group_id'].includes(plain)) continue;
    if (name !== '' && named[name] === undefined) named[name] = value;
  }

  const id = (named.id ?? '').trim();
  if (id === '') issues.push({ line: record.line, field: 'id', message: 'missing: every product needs an id' });
  else if (id.length > MAX_ID) issues.push({ line: record.line, field: 'id', message: `longer than ${MAX_ID} characters` });
  const groupId = (named.item_group_id ?? '').trim();
  delete named.id;
  delete named.item_group_id;

  const attributes: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(named)) {
    const text = value.trim();
    if (text === '') continue;
    if (MONEY.has(name)) {
      const money = parseMoney(text);
      if (money === undefined || money.amount < 0) {
        issues.push({ line: record.line, field: name, message: `"${text.slice(0, 40)}" is not a price (expected e.g. 15.00 or 15.00 USD, not negative)` });
        continue;
      }
      attributes[name] = money.amount;
      const currency = money.currency ?? options.currency;
      if (currency !== undefined && attributes.currency === undefined) attributes.currency = currency;
      continue;
    }
    if (URLS.has(name)) {
      const url = catalogUrl(text);
      if (url === '') issues.push({ line: record.line, field: name, message: `"${text.slice(0, 40)}" is not a URL a shop may link to (http(s), //host or /path, without control characters or whitespace inside)` });
      else attributes[name] = url;
      continue;
    }
    if (name === 'in_stock') {
      const stock = availability(text);
      if (stock === undefined) issues.push({ line: record.line, field: name, message: `"${text.slice(0, 40)}" is not an availability (in_stock, out_of_stock, preorder, backorder)` });
      else attributes.in_stock = stock;
      continue;
    }
    if (text.length > MAX_TEXT) {
      issues.push({ line: record.line, field: name, message: `longer than ${MAX_TEXT} characters` });
      continue;
    }
    attributes[name] = text;
  }
  if (issues.length > 0) return { issues };
  return { item: { line: record.line, id, ...(groupId === '' ? {} : { groupId }), attributes }, issues };
}

/**
 * Column types seen over the whole feed: INTEGER when every value is a plain integer (no leading
 * zero, which marks a code such as a GTIN, not a quantity), TEXT otherwise.
 */
export class TypeInference {
  private readonly integerOnly = new Map<string, boolean>();

  observe(attributes: Record<string, string | number>): void {
    for (const [name, value] of Object.entries(attributes)) {
      const integer = typeof value === 'number' || (/^-?(0|[1-9]\d{0,14})$/.test(value) && Number.isSafeInteger(Number(value)));
      this.integerOnly.set(name, (this.integerOnly.get(name) ?? true) && integer);
    }
  }

  types(): Record<string, AttributeType> {
    const types: Record<string, AttributeType> = {};
    for (const [name, integer] of [...this.integerOnly].sort(([a], [b]) => a.localeCompare(b))) types[name] = integer ? 'INTEGER' : 'TEXT';
    return types;
  }
}

/** The values as the schema declares them: "12" becomes 12 for an INTEGER attribute. */
export function typedAttributes(attributes: Record<string, string | number>, types: Record<string, AttributeType>): Record<string, string | number> {
  const typed: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (types[name] === undefined) continue;
    typed[name] = types[name] === 'INTEGER' ? Number(value) : String(value);
  }
  return typed;
}
