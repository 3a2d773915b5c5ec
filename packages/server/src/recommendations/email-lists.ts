/**
 * The lists behind e-mail photo.png and redirect.html links, one per (widget, user), kept in a small
 * per-tenant document so that a restart between the photo and the click does not change the item.
 * Only ids and scores are stored; products are read from the active catalog when a link is opened.
 */
import type { DocumentStore, StoredDocument } from '../store/document-store.js';

export interface EmailListEntry {
  /** The response id the list was issued under (click-on-reco names it). */
  id: string;
  expiresAt: number;
  items: Array<{ itemId: string; strategy: string; score: number; distribution: number }>;
  total: number;
}

interface EmailListsDocument {
  lists: Record<string, EmailListEntry>;
}

/** Bounds one tenant's document: past this, the lists closest to expiry go first. */
export const MAX_EMAIL_LISTS_PER_TENANT = 20_000;

export class EmailLists {
  private readonly store: DocumentStore;
  private readonly documents = new Map<string, Promise<StoredDocument<EmailListsDocument>>>();

  constructor(store: DocumentStore) {
    this.store = store;
  }

  async get(tenantId: string, key: string, now: number): Promise<EmailListEntry | undefined> {
    const entry = (await this.document(tenantId)).data.lists[key];
    return entry !== undefined && entry.expiresAt > now ? entry : undefined;
  }

  /** Stores a list and prunes every expired one in the same write. */
  async put(tenantId: string, key: string, entry: EmailListEntry, now: number): Promise<void> {
    const document = await this.document(tenantId);
    await document.update((data) => {
      for (const [k, e] of Object.entries(data.lists)) if (e.expiresAt <= now) delete data.lists[k];
      data.lists[key] = entry;
      const keys = Object.keys(data.lists);
      if (keys.length > MAX_EMAIL_LISTS_PER_TENANT) {
        keys.sort((a, b) => data.lists[a]!.expiresAt - data.lists[b]!.expiresAt);
        for (const k of keys.slice(0, keys.length - MAX_EMAIL_LISTS_PER_TENANT)) delete data.lists[k];
      }
    });
  }

  private document(tenantId: string): Promise<StoredDocument<EmailListsDocument>> {
    let document = this.documents.get(tenantId);
    if (document === undefined) {
      document = this.store.document<EmailListsDocument>(`tenants/${tenantId}/recommendation-email-lists`, () => ({ lists: {} }));
      this.documents.set(tenantId, document);
    }
    return document;
  }
}
