/**
 * Reads the UCI Online Retail transactions (Chen, Sain and Guo, 2012; CC BY 4.0) into products and
 * customers' orders: cancellations, returns and rows without a customer are left out, an order's
 * items are its distinct stock codes in the order the invoice lists them.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

export interface RetailOrder {
  invoice: string;
  customer: string;
  at: number;
  items: string[];
  prices: number[];
}

export interface RetailData {
  products: Map<string, { title: string; price: number }>;
  orders: RetailOrder[];
}

export async function readRetail(file: string): Promise<RetailData> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const products = new Map<string, { title: string; price: number }>();
  const orders = new Map<string, RetailOrder>();
  let header = true;
  for await (const line of lines) {
    if (header) {
      header = false;
      continue;
    }
    const [invoice, code, description, quantity, date, price, customer] = parseCsvLine(line);
    if (invoice === undefined || code === undefined || date === undefined) continue;
    const unitPrice = Math.round(Number(price) * 100);
    if (!products.has(code) && description) products.set(code, { title: description, price: Math.max(0, unitPrice) });
    if (invoice.startsWith('C') || !customer || Number(quantity) <= 0) continue;
    let order = orders.get(invoice);
    if (order === undefined) orders.set(invoice, (order = { invoice, customer, at: Date.parse(`${date.replace(' ', 'T')}Z`), items: [], prices: [] }));
    if (!order.items.includes(code)) {
      order.items.push(code);
      order.prices.push(Math.max(0, unitPrice));
    }
  }
  for (const order of orders.values()) for (const code of order.items) if (!products.has(code)) products.set(code, { title: code, price: 0 });
  return { products, orders: [...orders.values()].sort((a, b) => a.at - b.at || a.invoice.localeCompare(b.invoice)) };
}

/** One CSV line: fields separated by commas, optionally quoted with "" as an escaped quote. */
export function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote < 0) {
          value += line.slice(i);
          i = line.length;
          break;
        }
        value += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
      fields.push(value);
      i++;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return fields;
}

/**
 * The evaluations' time-respecting split: each customer with 3 or more orders has their last order held
 * out; every other order (in time order) is what the services learn from.
 */
export function splitLastOrders(orders: readonly RetailOrder[]): { byCustomer: Map<string, RetailOrder[]>; heldOut: Set<RetailOrder>; training: RetailOrder[] } {
  const byCustomer = new Map<string, RetailOrder[]>();
  for (const order of orders) {
    let list = byCustomer.get(order.customer);
    if (list === undefined) byCustomer.set(order.customer, (list = []));
    list.push(order);
  }
  const heldOut = new Set<RetailOrder>();
  for (const list of byCustomer.values()) if (list.length >= 3) heldOut.add(list.at(-1)!);
  return { byCustomer, heldOut, training: orders.filter((o) => !heldOut.has(o)) };
}
