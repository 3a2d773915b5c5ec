/**
 * The recent item imports of an environment (item batches loaded or patched through the catalog API):
 * when, into which version, how many items were sent and stored, and, for a refused batch, what failed
 * and why, so the console can show a merchandiser the last import without reading server logs.
 */
import type { CatalogImportRecord, FieldIssue } from '@discovery-kit/protocol';
import type { Clock } from '../../platform/clock.js';
import type { DocumentStore } from '../../platform/store/document-store.js';

/** Imports kept per environment, newest first; older ones are dropped. */
const KEPT = 20;
/** Issues kept per import: enough to fix a feed; the refusal's message still counts them all. */
const KEPT_ISSUES = 100;

interface ImportsDocument {
  imports: CatalogImportRecord[];
}

export interface ImportOutcome {
  mode: 'load' | 'patch';
  catalogVersion: number | null;
  received: number;
  stored: number;
  /** The refusal's message; absent when the batch was stored. */
  error?: string;
  issues?: readonly FieldIssue[];
}

export class CatalogImports {
  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {}

  private document(tenantId: string, environmentId: string) {
    return this.store.document<ImportsDocument>(`tenants/${tenantId}/envs/${environmentId}/catalog-imports`, () => ({ imports: [] }));
  }

  async record(tenantId: string, environmentId: string, outcome: ImportOutcome): Promise<void> {
    const issues = outcome.issues ?? [];
    const entry: CatalogImportRecord = {
      at: new Date(this.clock.now()).toISOString(),
      mode: outcome.mode,
      catalogVersion: outcome.catalogVersion,
      received: outcome.received,
      stored: outcome.stored,
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      issues: issues.slice(0, KEPT_ISSUES).map((issue) => ({ path: issue.path, message: issue.message })),
      issueCount: issues.length,
    };
    const doc = await this.document(tenantId, environmentId);
    await doc.update((data) => {
      data.imports = [entry, ...data.imports].slice(0, KEPT);
    });
  }

  /** Newest first. */
  async list(tenantId: string, environmentId: string, limit: number): Promise<CatalogImportRecord[]> {
    return (await this.document(tenantId, environmentId)).data.imports.slice(0, limit);
  }
}
