/**
 * The lists behind e-mail photo.png and redirect.html links, one per (widget, user), kept in small
 * per-tenant documents so that a restart between the photo and the click does not change the item.
 * Only ids and scores are stored; products are read from the active catalog when a link is opened.
 * A tenant's lists are spread over `SHARDS` documents by key, so that storing one list during a
 * campaign rewrites a sixteenth of them, not all.
 */
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';

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

const SHARDS = 16;
/** Bounds one shard document: past this, the lists closest to expiry go first (80,000 lists per tenant). */
export const MAX_EMAIL_LISTS_PER_SHARD = 5_000;

export class EmailLists {
  private readonly store: DocumentStore;
  private readonly documents = new Map<string, Promise<StoredDocument<EmailListsDocument>>>();

  constructor(store: DocumentStore) {
    this.store = store;
  }

  async get(tenantId: string, key: string, now: number): Promise<EmailListEntry | undefined> {
    const entry = (await this.document(tenantId, key)).data.lists[key];
    return entry !== undefined && entry.expiresAt > now ? entry : undefined;
  }

  /** Stores a list and prunes every expired one in the same write. */
  async put(tenantId: string, key: string, entry: EmailListEntry, now: number): Promise<void> {
    const document = await this.document(tenantId, key);
    await document.update((data) => {
      for (const [k, e] of Object.entries(data.lists)) if (e.expiresAt <= now) delete data.lists[k];
      data.lists[key] = entry;
      const keys = Object.keys(data.lists);
      if (keys.length > MAX_EMAIL_LISTS_PER_SHARD) {
        keys.sort((a, b) => data.lists[a]!.expiresAt - data.lists[b]!.expiresAt);
        for (const k of keys.slice(0, keys.length - MAX_EMAIL_LISTS_PER_SHARD)) delete data.lists[k];
      }
    });
  }

  private document(tenantId: string, key: string): Promise<StoredDocument<EmailListsDocument>> {
    const name = `tenants/${tenantId}/recommendation-email-lists/${shardOf(key)}`;
    let document = this.documents.get(name);
    if (document === undefined) {
      document = this.store.document<EmailListsDocument>(name, () => ({ lists: {} }));
      this.documents.set(name, document);
    }
    return document;
  }
}

/** A stable shard number from the key (FNV-1a), the same on every start. */
function shardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SHARDS;
}
