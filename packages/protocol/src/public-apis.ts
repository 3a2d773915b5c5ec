/**
 * The product view that search and recommendations share, as a storefront or the browser toolkit sees
 * it (search's own wire types are in search.ts). The server builds it with this type, and the browser
 * packages' type-check keeps the two in step. Field names follow the interface spec.
 */

/** The product as search and recommendations return it (`product`). Prices are integer cents. */
export interface ProductView {
  version: number;
  context: string;
  /** The older item API's composite id; `_id.original_id` is the shop's own id. */
  id: string;
  _id: { original_id: string; tenant: string; kind: string };
  type: string;
  title: string;
  /** An http(s) or site-relative URL; empty when the catalog gave none or an unsafe one. */
  url: string;
  recommended: boolean;
  booster: number;
  price: number;
  discount_rate: number;
  metadata: { updated: string };
  categories: string[];
  photo: string;
  /** The catalog's own attributes (strings, numbers, booleans). */
  [attribute: string]: unknown;
}
