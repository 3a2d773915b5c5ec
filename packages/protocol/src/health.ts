/** Wire shape of the health endpoint. */
export interface HealthResponse {
  status: 'ok';
  version: string;
  uptimeSeconds: number;
  tenants: number;
}
