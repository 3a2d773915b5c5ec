/**
 * What the offline tools (offline-ranker.ts, offline-buy-again.ts, offline-baskets*.ts) start from: the evaluation's split of
 * the retail data, and the training orders' purchases in the Interactions the server keeps.
 */
import { existsSync } from 'node:fs';
import { readRetail, splitLastOrders } from './retail-data.js';
import { Interactions } from '../packages/server/src/domains/recommendations/interactions.js';

/** The evaluation's split of the retail data (EVAL_DATA; OFFLINE_VALIDATE=1, 2, …: made again that many orders back, for tuning). */
export async function retailSplit() {
  const file = process.env.EVAL_DATA ?? '/work/shared/data/online-retail.csv.gz';
  if (!existsSync(file)) throw new Error(`${file} is absent`);
  const data = await readRetail(file);
  let split = splitLastOrders(data.orders);
  for (let again = Number(process.env.OFFLINE_VALIDATE ?? 0); again > 0; again--) split = splitLastOrders(split.training);
  return { data, ...split };
}

export async function offlineSplit() {
  const { data, byCustomer, heldOut, training } = await retailSplit();
  const interactions = new Interactions();
  for (const order of training) for (const item of order.items) interactions.add(order.customer, 'purchase', item, order.at);
  return { data, byCustomer, heldOut, training, interactions };
}
