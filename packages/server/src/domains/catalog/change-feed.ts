/**
 * Tells search and recommendations about item writes they must see within a second. While a version is
 * being promoted its changes are held back and replayed after the swap, because the builders worked
 * from a snapshot taken before them.
 */
import type { Logger } from '../../platform/logger.js';
import type { ItemsChanged, ItemsChangedListener, ItemScope } from './types.js';

export class ChangeFeed {
  private readonly listeners: ItemsChangedListener[] = [];
  private readonly held = new Map<string, ItemsChanged[]>();
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  subscribe(listener: ItemsChangedListener): void {
    this.listeners.push(listener);
  }

  hold(scope: ItemScope): void {
    this.held.set(keyOf(scope), []);
  }

  /** Ends a hold; the held changes are delivered only if the version became active. */
  release(scope: ItemScope, deliver: boolean): void {
    const changes = this.held.get(keyOf(scope)) ?? [];
    this.held.delete(keyOf(scope));
    if (deliver) for (const change of changes) this.emit(change);
  }

  /** `live` says whether the scope is what queries read now (the active catalog, or any older-API version). */
  publish(change: ItemsChanged, live: boolean): void {
    const held = this.held.get(keyOf(change.scope));
    if (held !== undefined) held.push(change);
    else if (live) this.emit(change);
  }

  private emit(change: ItemsChanged): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        // A failing index must not fail the write that already succeeded.
        this.logger.error({ err: error }, 'items-changed listener failed');
      }
    }
  }
}

function keyOf(scope: ItemScope): string {
  return `${scope.tenantId}/${scope.environmentId}/${scope.api}/${scope.version}`;
}
