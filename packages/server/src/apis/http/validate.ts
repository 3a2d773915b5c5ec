/**
 * Request validation for API modules: the zod helpers live in platform/validation.ts (domains and
 * the configuration loader use them too); their refusals reach the client as 400s naming each field.
 */
import { z } from 'zod';

export { formatPath, parseInput, zodIssues } from '../../platform/validation.js';

/**
 * A JSON object passed through as parsed: `z.record` would silently drop a `__proto__` key, and a
 * key we drop silently is a key we never refuse.
 */
export const plainObject = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'expected an object');
