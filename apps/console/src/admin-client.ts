/** The console's only way to the server: same-origin fetches of the admin API, the CSRF token on every change, errors as text a person can act on. */
import type { ErrorBody } from '@discovery-kit/protocol';

export class AdminRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field: string | undefined,
  ) {
    super(message);
  }
}

// Page-wide on purpose: the console page has one signed-in session and one chosen environment, which every page's request carries.
let csrfToken = '';
let environment = '';

export function useSession(token: string, environmentId: string): void {
  csrfToken = token;
  environment = environmentId;
}

/** `path` is under /admin; the environment is added to every request. */
export async function adminFetch<T>(path: string, init: { method?: string; json?: unknown; environment?: boolean } = {}): Promise<T> {
  const url = new URL(`/admin${path}`, location.origin);
  if (init.environment !== false && environment !== '') url.searchParams.set('environment', environment);
  const headers: Record<string, string> = {};
  const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, credentials: 'same-origin', body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined;
  if (!response.ok) {
    throw new AdminRequestError(response.status, body?.error?.message ?? `The server answered ${response.status}.`, body?.error?.field);
  }
  return body as T;
}
