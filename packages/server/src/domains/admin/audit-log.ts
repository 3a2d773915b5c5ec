/**
 * Who changed what in the configuration, and when: one stored document per tenant, newest last,
 * keeping the latest MAX_ENTRIES so that it never grows without bound.
 */
import type { AuditEntry } from '@discovery-kit/protocol';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';

export const MAX_AUDIT_ENTRIES = 2_000;

/** One audit line, as the admin API lists it (the protocol's type). */
export type { AuditEntry } from '@discovery-kit/protocol';

interface AuditDocument {
  entries: AuditEntry[];
}

export class AuditLog {
  private readonly documents = new Map<string, Promise<StoredDocument<AuditDocument>>>();

  constructor(private readonly store: DocumentStore) {}

  private document(tenantId: string): Promise<StoredDocument<AuditDocument>> {
    let doc = this.documents.get(tenantId);
    if (doc === undefined) this.documents.set(tenantId, (doc = this.store.document<AuditDocument>(`admin/audit/${tenantId}`, () => ({ entries: [] }))));
    return doc;
  }

  async append(tenantId: string, entry: AuditEntry): Promise<void> {
    const doc = await this.document(tenantId);
    await doc.update((data) => {
      data.entries.push(entry);
      if (data.entries.length > MAX_AUDIT_ENTRIES) data.entries.splice(0, data.entries.length - MAX_AUDIT_ENTRIES);
    });
  }

  /** Newest first. */
  async list(tenantId: string, options: { limit: number; environment?: string }): Promise<AuditEntry[]> {
    const doc = await this.document(tenantId);
    const out: AuditEntry[] = [];
    for (let i = doc.data.entries.length - 1; i >= 0 && out.length < options.limit; i--) {
      const entry = doc.data.entries[i]!;
      // `*` marks a tenant-wide action (a data-subject request): it belongs to every environment's view.
      if (options.environment === undefined || entry.environment === options.environment || entry.environment === '*') out.push(entry);
    }
    return out;
  }
}
