/** Replays real orders of the most active customers as collection-API activities: real purchases, synthesized views. */
import type { DemoActivity } from '../../src/demo-data.js';
import type { CatalogEntry } from './build-catalog.js';
import { stableHash } from './product-text.js';
import { type RetailRow, isProductSale } from './retail-rows.js';

export const DEMO_SOURCE_ID = 'demo-import';

export interface BuildActivitiesOptions {
  /** How many customers, most orders first, keep their history. */
  maxCustomers?: number;
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function topCustomers(rows: RetailRow[], max: number): Set<string> {
  const orders = new Map<string, Set<string>>();
  for (const row of rows) {
    const set = orders.get(row.customerId) ?? new Set<string>();
    set.add(row.invoice);
    orders.set(row.customerId, set);
  }
  const ranked = [...orders].sort(([a, x], [b, y]) => y.size - x.size || (a < b ? -1 : 1));
  return new Set(ranked.slice(0, max).map(([id]) => id));
}

export function buildActivities(rows: RetailRow[], entries: Map<string, CatalogEntry>, options: BuildActivitiesOptions = {}): DemoActivity[] {
  const sales = rows.filter((row) => isProductSale(row) && row.customerId !== '' && entries.has(row.stockCode));
  const customers = topCustomers(sales, options.maxCustomers ?? 1000);
  const orders = new Map<string, RetailRow[]>();
  for (const row of sales) {
    if (!customers.has(row.customerId)) continue;
    const lines = orders.get(row.invoice);
    if (lines) lines.push(row);
    else orders.set(row.invoice, [row]);
  }

  const activities: DemoActivity[] = [];
  for (const invoice of [...orders.keys()].sort()) {
    const lines = orders.get(invoice) ?? [];
    const { customerId, timestamp } = lines[0];
    const user = { identities: { 'customer-id': customerId } };
    const placedAt = Date.parse(timestamp);

    // The source has no browsing data. A shopper views each product shortly before buying it, which
    // gives "also viewed" something real to work with: views about 40 s apart, jittered by hash, the last a minute or more before the order.
    const viewed = [...new Map(lines.map((line) => [entries.get(line.stockCode)?.product ?? '', line])).values()];
    viewed.forEach((line, index) => {
      const entry = entries.get(line.stockCode) as CatalogEntry;
      const gap = (viewed.length - index) * 40_000 + (stableHash(`${invoice}:${entry.product}`) % 30) * 1000 + 60_000;
      activities.push({
        action: 'view',
        target: { product: entry.product },
        sourceId: DEMO_SOURCE_ID,
        user,
        ...(entry.variant ? { metadata: { variant: entry.variant } } : {}),
        timestamp: isoSeconds(placedAt - gap),
      });
    });
    for (const line of lines) {
      const entry = entries.get(line.stockCode) as CatalogEntry;
      activities.push({
        action: 'purchase',
        target: { product: entry.product },
        sourceId: DEMO_SOURCE_ID,
        user,
        metadata: {
          orderId: invoice,
          quantity: line.quantity,
          price: Math.round(line.unitPrice * 100),
          currency: 'GBP',
          ...(entry.variant ? { variant: entry.variant } : {}),
        },
        timestamp: line.timestamp,
      });
    }
  }
  // Time order lets the server replay the file as it happened; the sort is stable, so ties keep invoice order.
  return activities.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
}
