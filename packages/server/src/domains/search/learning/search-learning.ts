/**
 * Search's learned order: the votes shoppers cast for items of a query by clicking, carting and buying
 * them after searching it, folded from the activity log (handed to tracking as an `ActivityAggregate`,
 * so every process folding the shared log holds the same votes, a snapshot restores them, and erasing
 * a shopper removes theirs). The search pipeline asks `lifts` for the matches' learned signal
 * (learned-order.ts turns votes into lifts under a configuration's settings).
 *
 * Memory is bounded by design: MAX_QUERIES keys per tenant (the least used goes first), MAX_VOTES per
 * key (the oldest goes first), RECENT_CLICKS clicks per tenant remembered to credit a later add-to-cart
 * or purchase of the clicked item, and the search ledger's LEDGER_SIZE ids. Figures in docs/search.md.
 */
import { DAY_MS, type Clock } from '../../../platform/clock.js';
import type { ActivityAggregate, SnapshotPart } from '../../tracking/activity-aggregate.js';
import type { LogRecord } from '../../tracking/activity-record.js';
import { learnedItems, type LearnedItem, type LearningSettings, type Vote } from './learned-order.js';
import { ACTION_OF, CLICK, creditOf } from './search-credit.js';
import { SearchLedger } from './search-ledger.js';
import { leadsOf, leadVoteKey, leadVotes, rememberSearch, RECENT_SHOPPERS, type RecentSearches } from './query-leads.js';
import { deleteOldest } from '../../../platform/collections/oldest-first.js';

export const MAX_QUERIES = 1_000;
export const MAX_VOTES = 120;
export const RECENT_CLICKS = 20_000;
/** Cached search answers of a tenant are renewed at most this often while votes arrive. */
const EPOCH_MS = 5_000;

interface StoredVote extends Vote {
  /** When the vote's first action was received (ms): a reset hides votes received before it. */
  at: number;
}

/**
 * One key's votes: for the learned order (`queries`), or for the products it leads to (`leads`,
 * query-leads.ts). `memo` keeps what they give under the settings last asked with.
 */
interface KeyVotes {
  votes: Map<string, StoredVote>;
  generation: number;
  memo: { generation: number; settings: LearningSettings; since: number; day: number; clicks: boolean | undefined; items: LearnedItem[]; lifts: Map<string, number> } | undefined;
}

interface TenantLearning {
  queries: Map<string, KeyVotes>;
  leads: Map<string, KeyVotes>;
  /** shopper → their last searches (query-leads.ts). */
  recent: Map<string, RecentSearches>;
  /** shopper, item → the key and verification of the search they clicked it from. */
  clicks: Map<string, { key: string; verified: boolean }>;
  epoch: number;
  bumpedAt: number;
  pending: boolean;
}

type SavedVote = [voteKey: string, shopper: string, item: string, day: number, at: number, actions: number, position: number | null, origin?: string];

/** A snapshot chunk: one key's votes, one key's lead votes, the remembered clicks, or shoppers' recent searches. */
type SavedChunk = { key: string; votes: SavedVote[] } | { lead: string; votes: SavedVote[] } | { clicks: [string, string, boolean][] } | { recent: [shopper: string, key: string, at: number][] };

export interface LearnedQuery {
  key: string;
  votes: number;
  shoppers: number;
  lastVoteAt: number;
}

export class SearchLearning implements ActivityAggregate {
  private readonly tenants = new Map<string, TenantLearning>();
  readonly ledger = new SearchLedger();

  /** `keyOf` analyses an activity's query as the search pipeline does (query-key.ts, with the live index's correction). */
  constructor(private readonly deps: { clock: Clock; keyOf: (tenantId: string, query: string) => string }) {}

  readonly snapshot: SnapshotPart = {
    name: 'search-learning',
    version: 1,
    save: (tenantId) => this.save(tenantId),
    restore: (tenantId, chunk) => this.restore(tenantId, chunk as SavedChunk),
    clear: (tenantId) => void this.tenants.delete(tenantId),
  };

  fold(tenantId: string, record: LogRecord, profileId: string | undefined): void {
    if (record.kind !== 'activity') return;
    const shopper = profileId ?? record.profileId;
    // A vote needs someone to count once: an activity that names no shopper teaches nothing.
    if (shopper === '') return;
    if (record.type !== 'product') {
      // A results page's view names the query searched: remembered for the products it may lead to.
      if (record.verb === 'view' && record.query !== undefined) {
        const key = this.deps.keyOf(tenantId, record.query);
        if (key !== '') this.searched(this.tenant(tenantId), shopper, key, record.receivedAt);
      }
      return;
    }
    const action = ACTION_OF[record.verb];
    if (action === undefined) return;
    const tenant = this.tenant(tenantId);
    const clickKey = `${shopper}\u0000${record.itemId}`;
    let credit = creditOf(record, this.ledger, (query) => this.deps.keyOf(tenantId, query));
    if (credit === undefined && action !== CLICK) {
      const clicked = tenant.clicks.get(clickKey);
      if (clicked !== undefined) credit = { key: clicked.key, position: undefined, verified: clicked.verified };
    }
    this.lead(tenant, shopper, record, credit?.key, action);
    if (credit !== undefined && record.query !== undefined) this.searched(tenant, shopper, credit.key, record.receivedAt);
    if (credit === undefined) return;
    if (action === CLICK) remember(tenant.clicks, clickKey, { key: credit.key, verified: credit.verified }, RECENT_CLICKS);
    const day = Math.floor(record.receivedAt / DAY_MS);
    const voteKey = `${shopper}\u0000${record.itemId}\u0000${credit.verified ? day : 'once'}`;
    const query = this.entryOf(tenant.queries, credit.key);
    const vote = query.votes.get(voteKey);
    if (vote !== undefined && (vote.actions & action) !== 0) return;
    if (vote === undefined) {
      query.votes.set(voteKey, { shopper, item: record.itemId, day, at: record.receivedAt, actions: action, position: action === CLICK ? credit.position : undefined, ...(record.origin === undefined ? {} : { origin: record.origin }) });
      if (query.votes.size > MAX_VOTES) deleteOldest(query.votes);
    } else {
      vote.actions |= action;
      if (action === CLICK) vote.position = credit.position;
    }
    query.generation++;
    this.changed(tenant);
  }

  forgetProfiles(tenantId: string, profileIds: readonly string[]): void {
    const tenant = this.tenants.get(tenantId);
    if (tenant === undefined) return;
    const gone = new Set(profileIds);
    for (const query of tenant.queries.values()) {
      let removed = false;
      for (const [key, vote] of query.votes) if (gone.has(vote.shopper)) removed = query.votes.delete(key);
      if (removed) query.generation++;
    }
    for (const query of tenant.leads.values()) {
      let removed = false;
      for (const [key, vote] of query.votes) if (gone.has(vote.shopper)) removed = query.votes.delete(key);
      if (removed) query.generation++;
    }
    for (const key of [...tenant.clicks.keys()]) if (gone.has(key.slice(0, key.indexOf('\u0000')))) tenant.clicks.delete(key);
    for (const profileId of gone) tenant.recent.delete(profileId);
    this.changed(tenant);
  }

  /**
   * The lift (0 to 1, a share of the top text score) of each item `key` learned, under `settings`;
   * votes received before `since` (the query's last reset) are left out. Undefined when nothing is learned.
   */
  lifts(tenantId: string, key: string, settings: LearningSettings, since = 0): ReadonlyMap<string, number> | undefined {
    const memo = this.learned(tenantId, key, settings, since);
    return memo === undefined || memo.lifts.size === 0 ? undefined : memo.lifts;
  }

  /**
   * The products `key` leads to (query-leads.ts), each with its lift as `lifts` gives it; `clicks` (AI
   * Search) counts shoppers who only clicked them too. Undefined when none has enough shoppers.
   */
  leads(tenantId: string, key: string, settings: LearningSettings, since = 0, clicks = false): ReadonlyMap<string, number> | undefined {
    const memo = this.leadMemo(tenantId, key, settings, since, clicks);
    return memo === undefined || memo.lifts.size === 0 ? undefined : memo.lifts;
  }

  /** What `key` learned, item by item, for the console and the admin API; `leads`: the products it leads to. */
  explain(tenantId: string, key: string, settings: LearningSettings, since = 0, clicks = false): { votes: number; shoppers: number; items: LearnedItem[]; leads: LearnedItem[] } {
    const tenant = this.tenants.get(tenantId);
    const query = tenant?.queries.get(key);
    const votes = query === undefined ? [] : [...query.votes.values()].filter((vote) => vote.at >= since);
    const leadVoters = [...(tenant?.leads.get(key)?.votes.values() ?? [])].filter((vote) => vote.at >= since).map((vote) => vote.shopper);
    return {
      votes: votes.length,
      shoppers: new Set([...votes.map((vote) => vote.shopper), ...leadVoters]).size,
      items: this.learned(tenantId, key, settings, since)?.items ?? [],
      leads: this.leadMemo(tenantId, key, settings, since, clicks)?.items ?? [],
    };
  }

  /** Whether anything is kept under `key` (a search thread does not see learned state: such searches stay on the main thread). */
  has(tenantId: string, key: string): boolean {
    const tenant = this.tenants.get(tenantId);
    return tenant !== undefined && (tenant.queries.has(key) || tenant.leads.has(key));
  }

  /** The tenant's learned keys, most recently voted first. */
  queries(tenantId: string): LearnedQuery[] {
    const tenant = this.tenants.get(tenantId);
    if (tenant === undefined) return [];
    const keys = new Set([...tenant.queries.keys(), ...tenant.leads.keys()]);
    return [...keys]
      .map((key) => {
        const votes = [...(tenant.queries.get(key)?.votes.values() ?? []), ...(tenant.leads.get(key)?.votes.values() ?? [])];
        return { key, votes: votes.length, shoppers: new Set(votes.map((vote) => vote.shopper)).size, lastVoteAt: votes.reduce((max, vote) => Math.max(max, vote.at), 0) };
      })
      .sort((a, b) => b.lastVoteAt - a.lastVoteAt || (a.key < b.key ? -1 : 1));
  }

  /** Keys kept over every tenant (the `/metrics` gauge). */
  keyCount(): number {
    let count = 0;
    for (const tenant of this.tenants.values()) {
      count += tenant.queries.size;
      for (const key of tenant.leads.keys()) if (!tenant.queries.has(key)) count++;
    }
    return count;
  }

  /** Part of the search answer cache's key: it moves at most every EPOCH_MS while votes change what is learned. */
  epoch(tenantId: string): number {
    const tenant = this.tenants.get(tenantId);
    if (tenant === undefined) return 0;
    if (tenant.pending && this.deps.clock.now() - tenant.bumpedAt >= EPOCH_MS) this.bump(tenant);
    return tenant.epoch;
  }

  private learned(tenantId: string, key: string, settings: LearningSettings, since: number): KeyVotes['memo'] {
    return this.memoOf(this.tenants.get(tenantId)?.queries, key, settings, since, undefined);
  }

  private leadMemo(tenantId: string, key: string, settings: LearningSettings, since: number, clicks: boolean): KeyVotes['memo'] {
    return this.memoOf(this.tenants.get(tenantId)?.leads, key, settings, since, clicks);
  }

  /**
   * What `key`'s votes in `keys` give under `settings` (votes received before `since` left out), kept until
   * a vote, the settings or the day change. `clicks`: undefined for the learned order's votes as they are;
   * for lead votes, whether a click alone counts (leadVotes).
   */
  private memoOf(keys: Map<string, KeyVotes> | undefined, key: string, settings: LearningSettings, since: number, clicks: boolean | undefined): KeyVotes['memo'] {
    const entry = keys?.get(key);
    if (entry === undefined) return undefined;
    // Used: the least used key is the one dropped when the tenant is full.
    keys!.delete(key);
    keys!.set(key, entry);
    const day = Math.floor(this.deps.clock.now() / DAY_MS);
    const memo = entry.memo;
    if (memo !== undefined && memo.generation === entry.generation && memo.settings === settings && memo.since === since && memo.day === day && memo.clicks === clicks) return memo;
    const kept = since === 0 ? entry.votes.values() : [...entry.votes.values()].filter((vote) => vote.at >= since);
    const items = learnedItems(clicks === undefined ? kept : leadVotes(kept, clicks), settings, day);
    entry.memo = { generation: entry.generation, settings, since, day, clicks, items, lifts: new Map(items.map((item) => [item.id, item.lift])) };
    return entry.memo;
  }

  /** Remembers that `shopper` searched `key` at `at` (query-leads.ts). */
  private searched(tenant: TenantLearning, shopper: string, key: string, at: number): void {
    const recent = tenant.recent.get(shopper) ?? [];
    rememberSearch(recent, key, at);
    remember(tenant.recent, shopper, recent, RECENT_SHOPPERS);
  }

  /** Counts the product `record` names as a lead of each other query the shopper searched lately. */
  private lead(tenant: TenantLearning, shopper: string, record: LogRecord & { kind: 'activity' }, creditedKey: string | undefined, action: number): void {
    for (const search of leadsOf(tenant.recent.get(shopper), record, creditedKey, action)) {
      const query = this.entryOf(tenant.leads, search.key);
      const voteKey = leadVoteKey(shopper, record.itemId, record.receivedAt);
      const vote = query.votes.get(voteKey);
      if (vote !== undefined && (vote.actions & action) !== 0) continue;
      if (vote === undefined) {
        query.votes.set(voteKey, { shopper, item: record.itemId, day: Math.floor(record.receivedAt / DAY_MS), at: record.receivedAt, actions: action, position: undefined, ...(record.origin === undefined ? {} : { origin: record.origin }) });
        if (query.votes.size > MAX_VOTES) deleteOldest(query.votes);
      } else vote.actions |= action;
      query.generation++;
      this.changed(tenant);
    }
  }

  /** Forgets what `key` learned in this process (a reset that must also hold on other processes goes through the configuration). */
  drop(tenantId: string, key: string): boolean {
    const tenant = this.tenants.get(tenantId);
    const dropped = [tenant?.queries.delete(key), tenant?.leads.delete(key)].includes(true);
    if (dropped) this.changed(tenant!);
    return dropped;
  }

  private changed(tenant: TenantLearning): void {
    if (this.deps.clock.now() - tenant.bumpedAt >= EPOCH_MS) this.bump(tenant);
    else tenant.pending = true;
  }

  private bump(tenant: TenantLearning): void {
    tenant.epoch++;
    tenant.pending = false;
    tenant.bumpedAt = this.deps.clock.now();
  }

  /** The votes `keys` keeps under `key`, made when missing; now the most recently used key (MAX_QUERIES kept). */
  private entryOf(keys: Map<string, KeyVotes>, key: string): KeyVotes {
    const entry = keys.get(key) ?? { votes: new Map(), generation: 0, memo: undefined };
    remember(keys, key, entry, MAX_QUERIES);
    return entry;
  }

  private tenant(tenantId: string): TenantLearning {
    let tenant = this.tenants.get(tenantId);
    if (tenant === undefined) this.tenants.set(tenantId, (tenant = { queries: new Map(), leads: new Map(), recent: new Map(), clicks: new Map(), epoch: 0, bumpedAt: Number.NEGATIVE_INFINITY, pending: false }));
    return tenant;
  }

  private *save(tenantId: string): Iterable<SavedChunk> {
    const tenant = this.tenants.get(tenantId);
    if (tenant === undefined) return;
    for (const [key, query] of tenant.queries) {
      yield { key, votes: [...query.votes].map(([voteKey, v]) => savedVote(voteKey, v)) };
    }
    for (const [key, query] of tenant.leads) {
      yield { lead: key, votes: [...query.votes].map(([voteKey, v]) => savedVote(voteKey, v)) };
    }
    const clicks = [...tenant.clicks].map(([key, click]) => [key, click.key, click.verified] as [string, string, boolean]);
    for (let at = 0; at < clicks.length; at += 2_000) yield { clicks: clicks.slice(at, at + 2_000) };
    const recent = [...tenant.recent].flatMap(([shopper, searches]) => searches.map(({ key, at }) => [shopper, key, at] as [string, string, number]));
    for (let at = 0; at < recent.length; at += 2_000) yield { recent: recent.slice(at, at + 2_000) };
  }

  private restore(tenantId: string, chunk: SavedChunk): void {
    const tenant = this.tenant(tenantId);
    if ('clicks' in chunk) {
      for (const [key, clicked, verified] of chunk.clicks) tenant.clicks.set(key, { key: clicked, verified });
      return;
    }
    if ('recent' in chunk) {
      for (const [shopper, key, at] of chunk.recent) this.searched(tenant, shopper, key, at);
      return;
    }
    if ('lead' in chunk) {
      const query = this.entryOf(tenant.leads, chunk.lead);
      for (const [voteKey, shopper, item, day, at, actions, , origin] of chunk.votes) query.votes.set(voteKey, { shopper, item, day, at, actions, position: undefined, ...(origin === undefined ? {} : { origin }) });
      query.generation++;
      return;
    }
    const query = this.entryOf(tenant.queries, chunk.key);
    for (const [voteKey, shopper, item, day, at, actions, position, origin] of chunk.votes) query.votes.set(voteKey, { shopper, item, day, at, actions, position: position ?? undefined, ...(origin === undefined ? {} : { origin }) });
    query.generation++;
  }
}

function savedVote(voteKey: string, v: StoredVote): SavedVote {
  const saved: SavedVote = [voteKey, v.shopper, v.item, v.day, v.at, v.actions, v.position ?? null];
  if (v.origin !== undefined) saved.push(v.origin);
  return saved;
}

/** Sets `key` as the newest entry, letting the oldest go past `cap`. */
function remember<V>(map: Map<string, V>, key: string, value: V, cap: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > cap) deleteOldest(map);
}
