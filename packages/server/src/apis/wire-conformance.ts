/**
 * Compile-time only: every request body the browser packages and the console send, as
 * @discovery-kit/protocol publishes it, must be accepted by the server's schema for it, so
 * `npm run typecheck` fails when a schema gets stricter than the published type. Responses are checked
 * where they are shaped (each API module types its body with the protocol's type). Nothing here runs.
 */
import type { z } from 'zod';
import type * as Wire from '@discovery-kit/protocol';
import type { CollectActivityInput } from './collect/collect-schema.js';
import type { identifyBodySchema, trackerActivitySchema } from './tracker/tracker-schema.js';
import type { signInSchema } from './admin/admin-api.js';
import type { SearchConfiguration, searchConfigurationSchema, SearchTokenConfig, searchTokenSchema, StrategyName, WidgetConfig, widgetSchema } from '../platform/config/schema.js';
import type { Language } from '../platform/config/languages.js';

/** Compiles only when `Sent` is assignable to `Accepted`. */
type Conforms<Sent extends Accepted, Accepted> = [Sent, Accepted];

export type RequestConformance = [
  Conforms<Wire.CollectActivity, CollectActivityInput>,
  Conforms<Wire.IdentifyRequest, z.input<typeof identifyBodySchema>>,
  Conforms<Wire.TrackerActivityInput, z.input<typeof trackerActivitySchema>>,
  Conforms<Wire.SignInRequest, z.input<typeof signInSchema>>,
  Conforms<Wire.AdminWidget, z.input<typeof widgetSchema>>,
  Conforms<Wire.AdminSearchToken, z.input<typeof searchTokenSchema>>,
  Conforms<Wire.SearchConfigurationView, z.input<typeof searchConfigurationSchema>>,
];

/** The published names are the server's exactly: a name on one side only is a request refused or a response a client cannot read. */
export type NameConformance = [
  Conforms<Wire.WidgetStrategy, StrategyName>,
  Conforms<StrategyName, Wire.WidgetStrategy>,
  Conforms<Wire.SearchLanguage, Language>,
  Conforms<Language, Wire.SearchLanguage>,
];

/**
 * The console edits configuration resources by sending back what it read, so their published types
 * name every field the server keeps: a field on one side only fails here (a response check alone
 * would let the server add fields the protocol never tells clients about).
 */
export type ResourceFieldConformance = [
  Conforms<keyof WidgetConfig, keyof Wire.AdminWidget>,
  Conforms<keyof Wire.AdminWidget, keyof WidgetConfig>,
  Conforms<keyof SearchTokenConfig, keyof Wire.AdminSearchToken>,
  Conforms<keyof Wire.AdminSearchToken, keyof SearchTokenConfig>,
  Conforms<keyof SearchConfiguration, keyof Wire.SearchConfigurationView>,
  Conforms<keyof Wire.SearchConfigurationView, keyof SearchConfiguration>,
];
