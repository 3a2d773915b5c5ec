/**
 * Compile-time only: the server's own response and request types must stay assignable to the wire
 * types that @discovery-kit/protocol publishes to browsers, so `npm run typecheck` fails when one
 * side changes without the other. Nothing here runs.
 */
import type * as Wire from '@discovery-kit/protocol';
import type { CollectActivity } from './apis/collect/collect-schema.js';
import type { ProductView } from './catalog/product-view.js';
import type { RecommendationResponse } from './recommendations/recommendation-service.js';

type Conforms<Server extends Published, Published> = [Server, Published];

export type WireConformance = [
  Conforms<ProductView, Wire.ProductView>,
  Conforms<RecommendationResponse, Wire.RecommendationResponse>,
  Conforms<CollectActivity, Wire.CollectActivity>,
];
