/**
 * Response ids that carry their tenant and cannot be made up: search answers (`metadata.id`) and
 * recommendation answers (`id`, and `<id>-<position>` per item) are named `<kind>_<nonce><mac>`, the mac
 * an HMAC-SHA256 of kind, tenant and nonce under a key per tenant kept in the store, cut to 72 bits.
 * So an id verifies after a restart and on every process sharing the store, without a ledger of ids,
 * and one tenant's id never verifies for another. What an id proves is in docs/tracking.md.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { BoundedMap } from '../../platform/collections/bounded-map.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import type { Attribution, LoggedActivity } from './activity-record.js';

/** `r` a recommendation answer, `s` a search answer (search, suggest, autocomplete). */
export type ResponseKind = 'r' | 's';

/** 72 random bits: unique (as `metadata.id` must be) over billions of answers. */
const NONCE_BYTES = 9;
const MAC_BYTES = 9;
/** `r_` + 12 characters of nonce + 12 of mac, then an item's `-<position>` when it names one item. */
const ID = /^([rs])_([A-Za-z0-9_-]{12})([A-Za-z0-9_-]{12})(?:-\d{1,6})?$/;
/** Nonces are cut from a pool: one call for random bytes per 512 answers rather than one per answer. */
const POOL_NONCES = 512;

interface KeyDocument {
  /** base64url of 32 random bytes; empty until the tenant's first response. */
  key: string;
}

export class ResponseIds {
  private readonly documents = new Map<string, Promise<StoredDocument<KeyDocument>>>();
  /** Each tenant's key as a KeyObject, with the stored text it was made from (remade when that changes). */
  private readonly keys = new Map<string, { text: string; key: KeyObject }>();
  private pool = Buffer.alloc(0);
  private pooled = 0;

  constructor(private readonly store: DocumentStore) {}

  /** A fresh id for an answer to this tenant; creates the tenant's key on its first answer. */
  async issue(tenantId: string, kind: ResponseKind): Promise<string> {
    const key = await this.tenantKey(tenantId);
    const nonce = this.nonce();
    return `${kind}_${nonce}${mac(key, kind, tenantId, nonce)}`;
  }

  /** Whether `id` (a response's, or one item's `<id>-<position>`) was issued to this tenant. */
  async verifies(tenantId: string, id: string): Promise<boolean> {
    const match = ID.exec(id);
    if (match === null) return false;
    // The key is read at each check: another process may have created it since.
    const { key } = (await this.document(tenantId)).data;
    if (key === '') return false;
    const [, kind, nonce, given] = match as unknown as [string, ResponseKind, string, string];
    return timingSafeEqual(Buffer.from(mac(this.keyOf(tenantId, key), kind, tenantId, nonce)), Buffer.from(given));
  }

  /**
   * The profile id of a new anonymous session: `p_` and 16 characters (96 bits) of an HMAC of tenant and
   * session id under the tenant's key, the shape `newProfileId` gives. Every process sharing the store
   * names a session's profile alike, so the first activities of one new session reaching two processes at
   * the same moment make one profile, not two (docs/scale-out.md); the session id cannot be read back from it.
   */
  async anonymousProfileId(tenantId: string, sessionId: string): Promise<string> {
    const digest = createHmac('sha256', await this.tenantKey(tenantId)).update(`profile\u0000${tenantId}\u0000${sessionId}`).digest();
    return `p_${digest.subarray(0, 12).toString('base64url')}`;
  }

  /**
   * A keyed digest of the network an activity came from: the IPv4 address, or an IPv6 address's /64
   * (one household or office). Under the tenant's key, so it is the same on every process and cannot be
   * turned back into the address by anyone without the store; 72 bits. Search learning counts at most a
   * few shoppers per origin (learning/learned-order.ts); the address itself is never stored. A private,
   * loopback or link-local address has no origin: behind a reverse proxy that `trustedProxies` does not
   * name, every request would otherwise share the proxy's one origin.
   */
  async originOf(tenantId: string, address: string): Promise<string | undefined> {
    // A private or loopback address is a proxy's or a test machine's, not a shopper's network: no origin.
    if (!isPublicAddress(address)) return undefined;
    return createHmac('sha256', await this.tenantKey(tenantId)).update(`origin\u0000${networkOf(address)}`).digest().subarray(0, MAC_BYTES).toString('base64url');
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

  private nonce(): string {
    if (this.pooled === 0) {
      this.pool = randomBytes(NONCE_BYTES * POOL_NONCES);
      this.pooled = POOL_NONCES;
    }
    this.pooled--;
    return this.pool.subarray(this.pooled * NONCE_BYTES, (this.pooled + 1) * NONCE_BYTES).toString('base64url');
  }

  /** The tenant's key, made on its first use. */
  private async tenantKey(tenantId: string): Promise<KeyObject> {
    const doc = await this.document(tenantId);
    // Decided inside the update: on PostgreSQL the row is locked and re-read, so two processes agree on one key.
    if (doc.data.key === '') await doc.update((data) => void (data.key ||= randomBytes(32).toString('base64url')));
    return this.keyOf(tenantId, doc.data.key);
  }

  private keyOf(tenantId: string, text: string): KeyObject {
    let known = this.keys.get(tenantId);
    if (known?.text !== text) this.keys.set(tenantId, (known = { text, key: createSecretKey(Buffer.from(text, 'base64url')) }));
    return known.key;
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

function mac(key: KeyObject, kind: ResponseKind, tenantId: string, nonce: string): string {
  return createHmac('sha256', key).update(`${kind}\u0000${tenantId}\u0000${nonce}`).digest().subarray(0, MAC_BYTES).toString('base64url');
}

/** The address as one origin: an IPv4 address (also IPv4-mapped IPv6) whole, an IPv6 address's first four groups. */
export function networkOf(given: string): string {
  const address = unmapped(given);
  if (!address.includes(':')) return address;
  // Expand "::" so the first four groups are the /64 whatever the shorthand.
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':');
}

/** Networks no shopper is seen from directly: loopback, private, shared (carrier NAT), link-local, unique local. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['100.64.0.0', 10], ['169.254.0.0', 16], ['0.0.0.0', 8]] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::1', 128], ['::', 128], ['fc00::', 7], ['fe80::', 10]] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** The answers for recent addresses: a BlockList check builds a SocketAddress each time, about 10 µs of every collect call. */
const judged = new BoundedMap<string, boolean>(4_096);

/** Whether `address` is a public IPv4 or IPv6 address (IPv4-mapped IPv6 judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  const known = judged.get(address);
  if (known !== undefined) return known;
  const v4 = unmapped(address);
  const family = isIP(v4);
  const answer = family !== 0 && !NOT_PUBLIC.check(v4, family === 4 ? 'ipv4' : 'ipv6');
  if (address.length <= 64) judged.set(address, answer);
  return answer;
}

/** An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) as the IPv4 address it carries; any other as given. */
function unmapped(address: string): string {
  return /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1] ?? address;
}
