/** Wire types shared by the server and the browser packages. Types only: no runtime code. */
export type { ErrorBody, ErrorCode, FieldIssue } from './errors.js';
export type { HealthResponse } from './health.js';
