/**
 * Response ids that carry their tenant and cannot be made up: search answers (`metadata.id`) and
 * recommendation answers (`id`, and `<id>-<position>` per item) are named `<kind>_<nonce><mac>`, the mac
 * an HMAC-SHA256 of kind, tenant and nonce under a key per tenant kept in the store, cut to 72 bits.
 * So an id verifies after a restart and on every process sharing the store, without a ledger of ids,
 * and one tenant's id never verifies for another. What an id proves is in docs/tracking.md.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import type { Attribution, LoggedActivity } from './activity-record.js';

/** `r` a recommendation answer, `s` a search answer (search, suggest, autocomplete). */
export type ResponseKind = 'r' | 's';

const NONCE_BYTES = 6;
const MAC_BYTES = 9;
/** `r_` + 8 characters of nonce + 12 of mac, then an item's `-<position>` when it names one item. */
const ID = /^([rs])_([A-Za-z0-9_-]{8})([A-Za-z0-9_-]{12})(?:-\d{1,6})?$/;

interface KeyDocument {
  /** base64url of 32 random bytes; empty until the tenant's first response. */
  key: string;
}

export class ResponseIds {
  private readonly documents = new Map<string, Promise<StoredDocument<KeyDocument>>>();

  constructor(private readonly store: DocumentStore) {}

  /** A fresh id for an answer to this tenant; creates the tenant's key on its first answer. */
  async issue(tenantId: string, kind: ResponseKind): Promise<string> {
    const doc = await this.document(tenantId);
    // Decided inside the update: on PostgreSQL the row is locked and re-read, so two processes agree on one key.
    if (doc.data.key === '') await doc.update((data) => void (data.key ||= randomBytes(32).toString('base64url')));
    const nonce = randomBytes(NONCE_BYTES).toString('base64url');
    return `${kind}_${nonce}${mac(doc.data.key, kind, tenantId, nonce)}`;
  }

  /** Whether `id` (a response's, or one item's `<id>-<position>`) was issued to this tenant. */
  async verifies(tenantId: string, id: string): Promise<boolean> {
    const match = ID.exec(id);
    if (match === null) return false;
    // The key is read at each check: another process may have created it since.
    const { key } = (await this.document(tenantId)).data;
    if (key === '') return false;
    const [, kind, nonce, given] = match as unknown as [string, ResponseKind, string, string];
    return timingSafeEqual(Buffer.from(mac(key, kind, tenantId, nonce)), Buffer.from(given));
  }

  /**
   * How an activity's credit is to be taken (set once, at collect time): none when it names no response
   * and no widget; `verified` when every response id it names was issued to this tenant; else `unverified`
   * (an id made up or another tenant's, or a widget id alone).
   */
  async attributionOf(tenantId: string, activity: Pick<LoggedActivity, 'sourceId' | 'recommendationId' | 'widgetId'>): Promise<Attribution | undefined> {
    const ids = [activity.sourceId, activity.recommendationId].filter((id): id is string => id !== undefined);
    if (ids.length === 0) return activity.widgetId === undefined ? undefined : 'unverified';
    for (const id of ids) if (!(await this.verifies(tenantId, id))) return 'unverified';
    return 'verified';
  }

  private document(tenantId: string): Promise<StoredDocument<KeyDocument>> {
    let doc = this.documents.get(tenantId);
    if (doc === undefined) {
      doc = this.store.document<KeyDocument>(`tenants/${tenantId}/response-key`, () => ({ key: '' }));
      this.documents.set(tenantId, doc);
      doc.catch(() => this.documents.delete(tenantId));
    }
    return doc;
  }
}

function mac(key: string, kind: ResponseKind, tenantId: string, nonce: string): string {
  return createHmac('sha256', Buffer.from(key, 'base64url')).update(`${kind}\u0000${tenantId}\u0000${nonce}`).digest().subarray(0, MAC_BYTES).toString('base64url');
}
