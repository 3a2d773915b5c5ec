/** Wire shapes of the health and readiness endpoints. */

/** `GET /health`: the process is alive. */
export interface HealthResponse {
  status: 'ok';
  version: string;
  uptimeSeconds: number;
  tenants: number;
}

/** `GET /ready`: reached only once the indexes and aggregates are loaded (503 before). */
export interface ReadyResponse {
  status: 'ready';
}
