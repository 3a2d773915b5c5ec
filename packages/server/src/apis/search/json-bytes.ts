/**
 * A search thread's answer written as UTF-8 straight into one reused buffer, then copied into a pooled
 * one handed to the main thread (search-thread.ts). Built as strings, a page of many products is
 * hundreds of kilobytes: past V8's large-object size every such string is collected by the full
 * collector, in both threads. The bytes are exactly those of the main thread's text answer
 * (response-text.ts `answerParts`) encoded; response-text.test.ts compares them.
 */
import type { SearchItem, SearchResponse } from '@discovery-kit/protocol';
import type { HighlightTerms } from '../../domains/search/highlight.js';
import { hitHead, hitTail, hitView } from '../../domains/search/search-response.js';
import type { MaskTree } from '../http/response-mask.js';
import { answerParts, highlighted, maskedHitJson, type MaskedTexts } from './response-text.js';

/** The buffer's size to start with, and past which it is let go after an answer (one outsized answer does not keep it). */
const START_BYTES = 256 * 1024;
const KEEP_BYTES = 4 * 1024 * 1024;

export class JsonBytes {
  private buffer: Uint8Array;
  private at = 0;
  private readonly encoder = new TextEncoder();

  constructor(private readonly start = START_BYTES) {
    this.buffer = new Uint8Array(start);
  }

  write(text: string): void {
    // A UTF-16 code unit takes at most three bytes in UTF-8.
    const most = 3 * text.length;
    if (this.at + most > this.buffer.length) this.grow(this.at + most);
    this.at += this.encoder.encodeInto(text, this.buffer.subarray(this.at)).written;
  }

  /** One hit as `hitJson` (or, masked, `maskedHitJson`) writes it, its product view's kept text copied in. */
  hit(item: SearchItem, mask: MaskTree | undefined, maskText: string, memo: MaskedTexts): void {
    if (mask !== undefined) return this.write(maskedHitJson(item, mask, maskText, memo));
    const view = hitView(item);
    if (view === undefined) return this.write(JSON.stringify(item));
    this.write(hitHead(item));
    this.write(view);
    this.write(hitTail(item));
  }

  /** Bytes written since the last `take`. */
  get written(): number {
    return this.at;
  }

  /**
   * What was written since the last `take`, in a buffer of its own (so it can be handed over), then
   * starts again: one of `pool`'s when it fits (`pooled`), else one of its exact size.
   */
  take(pool?: AnswerBuffers): { body: ArrayBuffer; length: number; pooled: boolean } {
    const length = this.at;
    this.at = 0;
    let body: ArrayBuffer;
    const pooled = pool !== undefined && length <= POOLED_BYTES;
    if (pooled) {
      body = pool.take();
      new Uint8Array(body, 0, length).set(this.buffer.subarray(0, length));
    } else body = this.buffer.slice(0, length).buffer;
    if (this.buffer.length > KEEP_BYTES) this.buffer = new Uint8Array(this.start);
    return { body, length, pooled };
  }

  private grow(size: number): void {
    const grown = new Uint8Array(Math.max(size, 2 * this.buffer.length));
    grown.set(this.buffer.subarray(0, this.at));
    this.buffer = grown;
  }
}

/** The size of a pooled answer buffer: a page of the default ten items is 5-20 KB. Larger answers get a buffer of their own. */
export const POOLED_BYTES = 64 * 1024;
/** Free buffers a pool keeps at most (more come back only after a burst of answers in flight at once). */
const POOL_MOST = 256;

/**
 * A search thread's answer buffers, handed to the main thread with each answer and handed back once
 * the response is written (search-threads.ts `release`). A new buffer per answer was memory outside
 * the heap that V8 counts towards its next full collection: with a thread, the main thread ran one
 * every 2-2.5 s under load (docs/performance.md, "Seventh round"). Reused, they are allocated once.
 */
export class AnswerBuffers {
  private readonly free: ArrayBuffer[] = [];
  /** Buffers made so far: with buffers handed back, this stays near the most answers in flight at once. */
  made = 0;

  take(): ArrayBuffer {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    this.made++;
    return new ArrayBuffer(POOLED_BYTES);
  }

  /** Buffers handed back (a buffer of another size, or past the pool's room, is left to the collector). */
  give(buffers: readonly ArrayBuffer[]): void {
    for (const buffer of buffers) if (buffer.byteLength === POOLED_BYTES && this.free.length < POOL_MOST) this.free.push(buffer);
  }

  /** Free buffers held (tests). */
  get size(): number {
    return this.free.length;
  }
}

/**
 * A search thread's whole answer as UTF-8 (`answerParts`: the items as `itemsJson` writes them, the
 * metadata around the facets' JSON text), in a buffer of its own that can be handed over: the main
 * thread writes it to the socket as it is, with no string made of it and no copy.
 */
export function answerBody(
  out: JsonBytes,
  pool: AnswerBuffers | undefined,
  page: { items: readonly SearchItem[]; fields: readonly string[]; terms: HighlightTerms; mask: MaskTree | undefined; maskText: string; memo: MaskedTexts },
  metadata: Omit<SearchResponse['metadata'], 'facets'>,
  facetsText: string,
): { body: ArrayBuffer; length: number; pooled: boolean } {
  const { items, fields, terms, mask, maskText, memo } = page;
  for (const part of answerParts(ITEMS, metadata, facetsText)) {
    if (part !== ITEMS) {
      out.write(part);
      continue;
    }
    const shown = highlighted(items, fields, terms);
    out.write('[');
    for (let i = 0; i < shown.length; i++) {
      if (i > 0) out.write(',');
      out.hit(shown[i]!, mask, maskText, memo);
    }
    out.write(']');
  }
  return out.take(pool);
}

/** Where the items go among `answerParts`' parts (no JSON text is this string). */
const ITEMS = '\u0000items';
