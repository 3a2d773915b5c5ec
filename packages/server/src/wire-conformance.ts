/**
 * Compile-time only: the server's own response and request types must stay assignable to the wire
 * types that @discovery-kit/protocol publishes to browsers, so `npm run typecheck` fails when one
 * side changes without the other (the product view is the protocol's type itself). Nothing here runs.
 */
import type * as Wire from '@discovery-kit/protocol';
import type { CollectActivity } from './apis/collect/collect-schema.js';
import type { RecommendationResponse } from './recommendations/recommendation-service.js';

type Conforms<Server extends Published, Published> = [Server, Published];

export type WireConformance = [Conforms<RecommendationResponse, Wire.RecommendationResponse>, Conforms<CollectActivity, Wire.CollectActivity>];
