/** The catalog API calls an import makes, over HTTP with a bearer token, against a running server. */
export interface CatalogClientOptions {
  /** The server, e.g. http://localhost:8787; the catalog API is at its /catalog mount. */
  baseUrl: string;
  catalogPath?: string;
  tenant: string;
  environment: string;
  getToken: () => Promise<string>;
}

export class CatalogApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export interface CatalogRecord {
  version: number;
  state: string;
  promotionError?: string;
}

export class CatalogClient {
  private readonly options: CatalogClientOptions;

  constructor(options: CatalogClientOptions) {
    this.options = options;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { baseUrl, catalogPath = '/catalog', tenant, environment } = this.options;
    const query = `tenant=${encodeURIComponent(tenant)}&environment=${encodeURIComponent(environment)}`;
    const url = `${baseUrl.replace(/\/$/, '')}${catalogPath}${path}?${query}`;
    const headers: Record<string, string> = { authorization: `Bearer ${await this.options.getToken()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    if (!response.ok) {
      const error = (parsed as { error?: { message?: string } } | undefined)?.error;
      throw new CatalogApiError(`${method} ${catalogPath}${path}: ${response.status} ${error?.message ?? text.slice(0, 300)}`, response.status, parsed);
    }
    return parsed as T;
  }

  createSchema(schema: unknown): Promise<{ name: string; version: number }> {
    return this.call('POST', '/item-schemas', schema);
  }

  createCatalog(schemas: Array<{ name: string; version: number }>): Promise<CatalogRecord> {
    return this.call('POST', '/catalogs', { catalogItemSchemas: schemas });
  }

  async listCatalogs(): Promise<CatalogRecord[]> {
    return (await this.call<{ catalogs: CatalogRecord[] }>('GET', '/catalogs')).catalogs;
  }

  deleteCatalog(version: number): Promise<void> {
    return this.call('DELETE', `/catalogs/${version}`);
  }

  loadItems(items: unknown[]): Promise<unknown> {
    return this.call('POST', '/items', items);
  }

  promote(version: number): Promise<CatalogRecord> {
    return this.call('POST', `/catalogs/promote/${version}`);
  }

  getCatalog(version: number): Promise<CatalogRecord> {
    return this.call('GET', `/catalogs/${version}`);
  }
}
