/**
 * Compile-time only: the server's own response and request types must stay assignable to the wire
 * types that @discovery-kit/protocol publishes to browsers, so `npm run typecheck` fails when one
 * side changes without the other (the product view is the protocol's type itself). Requests go the
 * other way: whatever the published request type allows, the server's schema must accept. Nothing here runs.
 */
import type * as Wire from '@discovery-kit/protocol';
import type { CollectActivityInput } from './collect/collect-schema.js';
import type { RecommendationResponse } from '../domains/recommendations/recommendation-service.js';

type Conforms<Server extends Published, Published> = [Server, Published];

export type WireConformance = [Conforms<RecommendationResponse, Wire.RecommendationResponse>, Conforms<Wire.CollectActivity, CollectActivityInput>];
