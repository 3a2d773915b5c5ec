/** Reads the UCI "Online Retail" CSV (gzipped) into typed rows and tells real product sales from everything else. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

export interface RetailRow {
  invoice: string;
  /** Upper-cased: the source spells some codes both ways (15056bl and 15056BL). */
  stockCode: string;
  description: string;
  quantity: number;
  /** ISO 8601, UTC. */
  timestamp: string;
  unitPrice: number;
  /** Empty when the source row has none. */
  customerId: string;
  country: string;
}

/** Splits one CSV line, honouring quotes and doubled quotes; the source has no line breaks inside fields. */
export function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}

function toRow(fields: string[]): RetailRow | undefined {
  if (fields.length < 8) return undefined;
  const [invoice, stockCode, description, quantity, date, unitPrice, customerId, country] = fields.map((f) => f.trim());
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::(\d{2}))?/.exec(date);
  if (!match) return undefined;
  return {
    invoice,
    stockCode: stockCode.toUpperCase(),
    description: description.replace(/\s+/g, ' '),
    quantity: Number(quantity),
    timestamp: `${match[1]}T${match[2]}:${match[3] ?? '00'}Z`,
    unitPrice: Number(unitPrice),
    // Some exports write customer ids as floats (17850.0).
    customerId: customerId.replace(/\.0+$/, ''),
    country,
  };
}

export async function readRetailRows(source: string): Promise<RetailRow[]> {
  const gunzip = createGunzip();
  pipeline(createReadStream(source), gunzip, () => {});
  const rows: RetailRow[] = [];
  let header = true;
  for await (const line of createInterface({ input: gunzip, crlfDelay: Infinity })) {
    if (header) {
      header = false;
      continue;
    }
    if (line.trim() === '') continue;
    const row = toRow(splitCsvLine(line));
    if (row) rows.push(row);
  }
  return rows;
}

// Real products are five digits plus an optional letter suffix; POST, DOT, M, D, C2, S, B, PADS,
// BANK CHARGES, AMAZONFEE, CRUK, gift_0001_* vouchers and the DCGS* marketplace codes are not.
const PRODUCT_CODE = /^\d{5}[A-Z]{0,2}$/;

export function isProductCode(stockCode: string): boolean {
  return PRODUCT_CODE.test(stockCode);
}

/** A completed sale of a product: cancellations (C…) and adjustments (A…) have non-numeric invoice numbers. */
export function isProductSale(row: RetailRow): boolean {
  return /^\d+$/.test(row.invoice) && isProductCode(row.stockCode) && row.quantity > 0 && row.unitPrice > 0;
}

/** Warehouse notes ("damaged", "ebay", "?") share the Description column; real titles are upper case. */
export function isShopDescription(description: string): boolean {
  return /[A-Z]{2}/.test(description) && description === description.toUpperCase() && !/VOUCHER|POSTAGE/.test(description);
}
