/**
 * Request validation for API modules: the zod helpers live in platform/validation.ts (domains and
 * the configuration loader use them too); their refusals reach the client as 400s naming each field.
 */
export { formatPath, parseInput, zodIssues } from '../../platform/validation.js';
