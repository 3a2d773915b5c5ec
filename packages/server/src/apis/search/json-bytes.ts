/**
 * A search thread's page of items written as UTF-8 straight into one reused buffer, then handed to the
 * main thread (search-thread.ts). Built as strings, a page of many products is hundreds of kilobytes:
 * past V8's large-object size every such string is collected by the full collector, in both threads.
 * The bytes are exactly those of `itemsJson` (response-text.ts) encoded; response-text.test.ts
 * compares them.
 */
import type { SearchItem } from '@discovery-kit/protocol';
import type { HighlightTerms } from '../../domains/search/highlight.js';
import { hitHead, hitTail, hitView } from '../../domains/search/search-response.js';
import type { MaskTree } from '../http/response-mask.js';
import { highlighted, maskedHitJson, type MaskedTexts } from './response-text.js';

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

  /** What was written since the last `take`, in a buffer of its own (so it can be handed over); starts again. */
  take(): Uint8Array {
    const out = this.buffer.slice(0, this.at);
    this.at = 0;
    if (this.buffer.length > KEEP_BYTES) this.buffer = new Uint8Array(this.start);
    return out;
  }

  private grow(size: number): void {
    const grown = new Uint8Array(Math.max(size, 2 * this.buffer.length));
    grown.set(this.buffer.subarray(0, this.at));
    this.buffer = grown;
  }
}

/**
 * A search thread's answer as UTF-8: `itemsJson`'s text, then the facets' JSON text, in one buffer of
 * their own that both views share, so one transfer hands both over. Sent as a string, the facets (a
 * couple of kilobytes an answer) were promoted in the main thread (docs/performance.md, "Seventh round").
 */
export function answerBytes(out: JsonBytes, items: readonly SearchItem[], fields: readonly string[], terms: HighlightTerms, mask: MaskTree | undefined, maskText: string, memo: MaskedTexts, facetsText: string): { items: Uint8Array; facets: Uint8Array } {
  const shown = highlighted(items, fields, terms);
  out.write('[');
  for (let i = 0; i < shown.length; i++) {
    if (i > 0) out.write(',');
    out.hit(shown[i]!, mask, maskText, memo);
  }
  out.write(']');
  const split = out.written;
  out.write(facetsText);
  const both = out.take();
  return { items: both.subarray(0, split), facets: both.subarray(split) };
}
