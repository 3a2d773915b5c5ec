/**
 * What every domain service may be given by the composition root (app/services.ts): configuration,
 * storage, logging, time, and a way to be told of shutdown. Domains take the parts they need
 * (`Pick<ServiceContext, 'store' | 'clock'>`), never the whole server: the API modules' dependency
 * bag (apis/api-module.ts `ServerDeps`) adds the built services on top of this.
 */
import type { Clock } from './clock.js';
import type { LoadedConfig } from './config/load.js';
import type { ConfigRegistry } from './config/registry.js';
import type { Logger } from './logger.js';
import type { DocumentStore } from './store/document-store.js';
import type { EventLogs } from './event-log/event-log.js';
import type { BlobStore } from './blob-store/blob-store.js';
import type { SharedRateWindows } from './shared-state/rate-windows.js';
import type { SharedClaims } from './shared-state/shared-claims.js';
import type { FoldLagBoard } from './shared-state/fold-lag-board.js';

export interface ServiceContext {
  config: LoadedConfig;
  registry: ConfigRegistry;
  store: DocumentStore;
  /** Append-only logs per stream (each tenant's activities). */
  eventLogs: EventLogs;
  /** Named binaries written whole (trained item models). */
  blobs: BlobStore;
  logger: Logger;
  clock: Clock;
  /** Request counts shared with the other processes serving the shop (Redis); absent: each process counts alone. */
  rateWindows?: SharedRateWindows;
  /** Keys only one of the processes serving the shop may take (activity idempotency keys; Redis). */
  sharedClaims?: SharedClaims;
  /**
   * False: this process never trains recommendation models; it loads what the process holding the
   * trainer lease stores (a shared store only: docs/scale-out.md, "A process that only trains").
   */
  trains?: boolean;
  /**
   * True: this process only takes activities (the collection APIs) and folds none of them; the serving
   * processes fold them from the shared log (docs/scale-out.md, "An ingest tier"). Needs a shared store and `foldLagBoard`.
   */
  ingestOnly?: boolean;
  /** How far behind each serving process's fold is, shared (Redis); read by ingest-only processes. */
  foldLagBoard?: FoldLagBoard;
  /** Called on shutdown, in reverse order of registration, after the HTTP server stopped taking requests. */
  onClose(hook: () => Promise<void>): void;
}
