/**
 * Fast path of response-text.ts `answerParts`, UTF-8 encoded: must equal it byte for byte (response-text.test.ts).
 *
 * A search thread's answer written as UTF-8 straight into one reused buffer, then copied into a pooled
 * one handed to the main thread (search-thread.ts). Built as strings, a page of many products is
 * hundreds of kilobytes: past V8's large-object size every such string is collected by the full
 * collector, in both threads. The bytes are exactly those of the main thread's text answer
 * (response-text.ts `answerParts`) encoded; response-text.test.ts compares them.
 */
import type { SearchFacet, SearchItem, SearchResponse } from '@discovery-kit/protocol';
import type { HighlightTerms } from './highlight.js';
import { hitHead, hitTail, hitView } from './search-response.js';
import type { MaskTree } from '../../../platform/response-mask.js';
import { answerParts, highlighted, maskedHitJson, type MaskedTexts } from './response-text.js';

/** The buffer's size to start with, and past which it is let go after an answer (one outsized answer does not keep it). */
const START_BYTES = 256 * 1024;
const KEEP_BYTES = 4 * 1024 * 1024;

/**
 * Strings' JSON as UTF-8, for `JsonBytes.facets`: cleared when it holds ENCODED_MOST (a catalog's facet
 * labels number far fewer), and only strings of up to ENCODED_LONGEST characters: a selected value
 * comes from the request and is listed back, so a long one would otherwise stay in memory (10,000 of
 * 100,000 characters each is a gigabyte); a longer string is encoded each time.
 */
const ENCODED_MOST = 10_000;
export const ENCODED_LONGEST = 200;
const encodedJson = new Map<string, Uint8Array>();

/** Strings whose JSON bytes are kept now (tests). */
export function encodedStrings(): number {
  return encodedJson.size;
}
const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const [OPEN, CLOSE, FACET_ID, NEXT_FACET_ID, TITLE, ATTRIBUTE, COUNT, VALUES, VALUE, NEXT_VALUE, SELECTED, UNSELECTED, CLOSE_FACET] = [
  '[', ']', '{"id":', ',{"id":', ',"title":', ',"attribute":', ',"count":', ',"values":[', '{"value":', ',{"value":', ',"selected":true}', ',"selected":false}', ']}',
].map(ascii);

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

  /**
   * `JSON.stringify(facets)` written straight as UTF-8 (the same bytes; response-text.test.ts compares
   * them). Made as a string, a page's facets (2 KB, some forty small objects) cost more than writing its
   * ten products: here a short string's JSON is kept encoded (`encodedJson`: facet ids, titles and value
   * labels recur in every answer) and the counts are written digit by digit.
   */
  facets(facets: readonly SearchFacet[]): void {
    this.bytes(OPEN);
    for (let f = 0; f < facets.length; f++) {
      const { id, title, attribute, count, values } = facets[f]!;
      this.bytes(f === 0 ? FACET_ID : NEXT_FACET_ID);
      this.json(id);
      if (title !== undefined) {
        this.bytes(TITLE);
        this.json(title);
      }
      if (attribute !== undefined) {
        this.bytes(ATTRIBUTE);
        this.json(attribute);
      }
      this.bytes(COUNT);
      this.number(count);
      this.bytes(VALUES);
      for (let v = 0; v < values.length; v++) {
        const value = values[v]!;
        this.bytes(v === 0 ? VALUE : NEXT_VALUE);
        this.json(value.value);
        this.bytes(COUNT);
        this.number(value.count);
        this.bytes(value.selected ? SELECTED : UNSELECTED);
      }
      this.bytes(CLOSE_FACET);
    }
    this.bytes(CLOSE);
  }

  /** Bytes copied in: short ones one by one (`set` costs more than the copy below a few dozen). */
  private bytes(bytes: Uint8Array): void {
    const length = bytes.length;
    if (this.at + length > this.buffer.length) this.grow(this.at + length);
    const { buffer } = this;
    if (length > 48) buffer.set(bytes, this.at);
    else for (let i = 0, at = this.at; i < length; i++) buffer[at++] = bytes[i]!;
    this.at += length;
  }

  /** A string as JSON (quoted and escaped), a short one's bytes made once while the cache has room. */
  private json(text: string): void {
    if (text.length > ENCODED_LONGEST) return this.write(JSON.stringify(text));
    let bytes = encodedJson.get(text);
    if (bytes === undefined) {
      bytes = this.encoder.encode(JSON.stringify(text));
      if (encodedJson.size >= ENCODED_MOST) encodedJson.clear();
      encodedJson.set(text, bytes);
    }
    this.bytes(bytes);
  }

  /** A number as JSON writes it: a count digit by digit, anything else through `JSON.stringify`. */
  private number(n: number): void {
    if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) return this.write(JSON.stringify(n));
    if (this.at + 10 > this.buffer.length) this.grow(this.at + 10);
    const digits = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : n < 100_000 ? 5 : String(n).length;
    let at = this.at + digits;
    this.at = at;
    do {
      this.buffer[--at] = 48 + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
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
  facets: readonly SearchFacet[],
): { body: ArrayBuffer; length: number; pooled: boolean } {
  const { items, fields, terms, mask, maskText, memo } = page;
  for (const part of answerParts(ITEMS, metadata, FACETS)) {
    if (part === FACETS) out.facets(facets);
    else if (part !== ITEMS) out.write(part);
    else {
      const shown = highlighted(items, fields, terms);
      out.write('[');
      for (let i = 0; i < shown.length; i++) {
        if (i > 0) out.write(',');
        out.hit(shown[i]!, mask, maskText, memo);
      }
      out.write(']');
    }
  }
  return out.take(pool);
}

/** Where the items and the facets go among `answerParts`' parts (no JSON text is either string). */
const ITEMS = '\u0000items';
const FACETS = '\u0000facets';
