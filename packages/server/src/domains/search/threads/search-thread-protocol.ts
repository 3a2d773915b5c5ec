/**
 * The messages between the main thread and a search thread (search-threads.ts, search-thread.ts).
 * Every message about one environment's catalog carries that environment's sequence number, so the
 * main thread knows when a thread has applied everything it was sent (and only then routes to it).
 */
import type { LoadedConfig } from '../../../platform/config/load.js';
import type { DomainErrorKind, DomainErrorOptions } from '../../../platform/domain-error.js';
import type { ItemsChanged, StoredItem } from '../../catalog/types.js';
import type { QuerySpelling } from '../analytics/search-queries.js';
import type { SearchQuery } from '../search-pipeline.js';
import type { AnswerHead } from '../response/response-text.js';

/** A search as the main thread validated it: the thread resolves the configuration by token and id. */
export interface ThreadSearch extends Pick<SearchQuery, 'tenantId' | 'environmentId' | 'query' | 'offset' | 'limit' | 'sortBy' | 'facets' | 'filter' | 'variables'> {
  token: string;
  configurationId: string;
  disabled: string[];
  /** Product fields to highlight (none: no highlighting). */
  highlight: string[];
  /** `options.customResponseMask` as sent ('' for none). */
  maskText: string;
  /** The answer's metadata the main thread decided (its id, url, default configuration and start). */
  head: AnswerHead;
}

/** A search answer written whole by a thread, and what the main thread's query analytics need of it. */
export interface ThreadAnswer {
  /**
   * The response body as UTF-8 in `body`'s first `length` bytes, handed over, not copied: as strings in
   * both heaps, answers of many products (up to 10,000 a page) made the main thread collect garbage a
   * third of its time.
   */
  body: ArrayBuffer;
  length: number;
  /** `body` is one of the thread's pooled buffers: hand it back once the response is written (`buffers`). */
  pooled: boolean;
  /** The thread that wrote it (`worker_threads.threadId`), to hand its buffer back to. */
  thread: number;
  matched: number;
  spelling: QuerySpelling;
  corrected: string | undefined;
  relaxed: boolean;
}

/** A DomainError's fields (the main thread throws the same error, so the same answer goes out), or why the thread could not answer. */
export type ThreadFailure = ({ kind: DomainErrorKind; message: string } & DomainErrorOptions) | { unexpected: string };

export type ToThread =
  | { type: 'config'; seq: number; config: LoadedConfig }
  | { type: 'cache'; size: number }
  /** Part of an environment's catalog; the `activate` after it makes the parts one version's items. */
  | { type: 'items'; key: string; items: StoredItem[] }
  | { type: 'activate'; key: string; seq: number; tenantId: string; environmentId: string; version: number }
  | { type: 'changed'; key: string; seq: number; change: ItemsChanged }
  | { type: 'search'; id: number; request: ThreadSearch }
  /** Answer buffers (`ThreadAnswer.pooled`) whose responses are written: the thread reuses them. */
  | { type: 'buffers'; buffers: ArrayBuffer[] }
  /** The thread's figures (`stats`), its loop and collection maxima reset after; `collect` first runs a full collection where one can be asked for. */
  | { type: 'stats'; collect: boolean };

export type FromThread =
  | { type: 'config-applied'; seq: number }
  /** The thread applied the environment's messages up to `seq`; its live index holds `version`. */
  | { type: 'applied'; key: string; seq: number; version: number | undefined }
  | { type: 'answer'; id: number; answer: ThreadAnswer }
  | { type: 'failed'; id: number; failure: ThreadFailure }
  | { type: 'stats'; stats: ThreadStats };

/**
 * A thread's own figures: its heap (`process.memoryUsage` in a worker counts its isolate), and since
 * the previous ask (the first ask starts the count) the longest its event loop was held and its
 * longest and total garbage collection, and how busy it was.
 */
export interface ThreadStats {
  heapBytes: number;
  loopMaxMs: number;
  gcMaxMs: number;
  gcMs: number;
  /** Milliseconds the thread's loop was busy since the previous ask, and that as a share of the time (its event loop utilisation). */
  busyMs: number;
  utilization: number;
  /** Answer buffers made since the thread started, and free in its pool now (json-bytes.ts `AnswerBuffers`). */
  answerBuffers: { made: number; free: number };
}

/** The key of an environment in these messages. */
export function environmentKey(tenantId: string, environmentId: string): string {
  return `${tenantId}\u0000${environmentId}`;
}
