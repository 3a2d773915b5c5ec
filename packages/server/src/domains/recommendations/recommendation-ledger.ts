/**
 * Which recommendation ids were issued, so that `click-on-reco` (and `sourceId`) can be checked after a
 * restart without one log line per response: a server reserves ids in blocks and logs one line per
 * block. An id is `r_<prefix><n in base 36>`: the prefix is random per server start, n counts up.
 */
import type { LoggedRecommendation } from '../tracking/activity-record.js';

const ID = /^r_([A-Za-z0-9_-]{8})([0-9a-z]{1,10})$/;

export function formatRecommendationId(prefix: string, n: number): string {
  return `r_${prefix}${n.toString(36)}`;
}

export function parseRecommendationId(id: string): { prefix: string; n: number } | undefined {
  const match = ID.exec(id);
  return match === null ? undefined : { prefix: match[1]!, n: Number.parseInt(match[2]!, 36) };
}

/**
 * The response id inside a per-item id: the recommendation API numbers the items of a response
 * `<response id>-<position>`, and click-on-reco may name either.
 */
function responseIdOf(itemId: string): string | undefined {
  const match = /^(.+)-\d{1,6}$/.exec(itemId);
  return match === null ? undefined : match[1];
}

export type LedgerChunk = { single: Array<[string, Record<string, unknown>]> } | { blocks: Array<[string, Array<[number, number]>]> };

export class RecommendationLedger {
  /** Ids logged one per line (earlier versions, `registerRecommendation`), with what was logged about them. */
  private readonly single = new Map<string, Record<string, unknown>>();
  /** Reserved blocks per prefix, as [first, last]; a few per server start. */
  private readonly blocks = new Map<string, Array<[number, number]>>();

  fold(record: LoggedRecommendation): void {
    if (record.id !== undefined) this.single.set(record.id, record.info ?? {});
    if (record.ids === undefined) return;
    const { prefix, first, last } = record.ids;
    const list = this.blocks.get(prefix);
    if (list === undefined) this.blocks.set(prefix, [[first, last]]);
    else list.push([first, last]);
  }

  /** Snapshot chunks: single ids with their info, then the reserved blocks by prefix. */
  *save(): Iterable<LedgerChunk> {
    const single = [...this.single];
    for (let at = 0; at < single.length; at += 2_000) yield { single: single.slice(at, at + 2_000) };
    yield { blocks: [...this.blocks] };
  }

  restore(chunk: LedgerChunk): void {
    if ('single' in chunk) for (const [id, info] of chunk.single) this.single.set(id, info);
    else for (const [prefix, blocks] of chunk.blocks) this.blocks.set(prefix, [...(this.blocks.get(prefix) ?? []), ...blocks]);
  }

  /**
   * What was logged with a single id; `{}` for an id in a reserved block (nothing is kept per response;
   * an id of the block not handed out yet also counts); undefined when never issued.
   */
  find(id: string): Record<string, unknown> | undefined {
    return this.findResponse(id) ?? this.findResponse(responseIdOf(id));
  }

  private findResponse(id: string | undefined): Record<string, unknown> | undefined {
    if (id === undefined) return undefined;
    const single = this.single.get(id);
    if (single !== undefined) return single;
    const parsed = parseRecommendationId(id);
    if (parsed === undefined) return undefined;
    return (this.blocks.get(parsed.prefix) ?? []).some(([first, last]) => parsed.n >= first && parsed.n <= last) ? {} : undefined;
  }
}
