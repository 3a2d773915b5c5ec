/**
 * Hands out recommendation response ids per tenant from blocks reserved in the activity log (one log
 * line per block rather than one per response). A block is renewed when used up, and after an hour so
 * that the line naming ids in use is never one that log retention is about to drop.
 */
import { randomBytes } from 'node:crypto';
import type { ActivityService } from '../tracking/activity-service.js';
import { formatRecommendationId } from './recommendation-ledger.js';
import type { Clock } from '../../platform/clock.js';

export const ID_BLOCK_SIZE = 10_000;
const BLOCK_MAX_AGE_MS = 60 * 60_000;

interface TenantBlock {
  next: number;
  last: number;
  reservedAt: number;
  pending: Promise<void> | undefined;
}

export class RecommendationIds {
  /** Random per server start: ids of two servers (or two runs) never collide. */
  private readonly prefix = randomBytes(6).toString('base64url');
  private readonly blocks = new Map<string, TenantBlock>();
  private readonly activities: ActivityService;
  private readonly clock: Clock;

  constructor(deps: { activities: ActivityService; clock: Clock }) {
    this.activities = deps.activities;
    this.clock = deps.clock;
  }

  async issue(tenantId: string): Promise<string> {
    let block = this.blocks.get(tenantId);
    if (block === undefined) this.blocks.set(tenantId, (block = { next: 0, last: -1, reservedAt: 0, pending: undefined }));
    for (;;) {
      if (block.next <= block.last && this.clock.now() - block.reservedAt < BLOCK_MAX_AGE_MS) return formatRecommendationId(this.prefix, block.next++);
      // Concurrent requests wait for the one reservation in flight.
      block.pending ??= this.reserve(tenantId, block).finally(() => {
        block.pending = undefined;
      });
      await block.pending;
    }
  }

  private async reserve(tenantId: string, block: TenantBlock): Promise<void> {
    const first = block.next;
    const last = first + ID_BLOCK_SIZE - 1;
    await this.activities.logRecommendation(tenantId, { ids: { prefix: this.prefix, first, last } });
    block.last = last;
    block.reservedAt = this.clock.now();
  }
}
