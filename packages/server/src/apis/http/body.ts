/** Reads request bodies with a size limit and a content-type check, so no body can exhaust memory or reach a handler unparsed. */
import type { Context, Next } from 'koa';
import { HttpError } from './errors.js';
import './koa-augment.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface BodyOptions {
  /** Largest body accepted, in bytes. */
  limit?: number;
  /** Accept `text/plain` as JSON: `navigator.sendBeacon` sends strings that way and cannot set a JSON type. */
  textPlainAsJson?: boolean;
  /** Shape limits beyond the defaults (catalog batches hold more items than any other body). */
  shape?: Partial<JsonShapeLimits>;
}

function mediaType(ctx: Context): string {
  return (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Reads the raw body, refusing it with 413 as soon as it passes `limit` bytes. Listeners rather than
 * `for await`: the stream's async iterator costs a generator and a promise per chunk, on every
 * request of every API, where most bodies are one chunk.
 */
export function readRawBody(ctx: Context, limit: number): Promise<string> {
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  const req = ctx.req;
  // Read already (nothing more will come) or gone: answered at once rather than waiting for events that passed.
  if (req.readableEnded) return Promise.resolve('');
  if (req.destroyed) return Promise.reject(new Error('The request was closed before its body ended.'));
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop();
        // The rest is read and dropped, so the connection can still carry the 413.
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    // A client that goes away before the end: no answer can reach it, but the handler must not wait forever.
    const onClose = (): void => {
      stop();
      reject(new Error('The request was closed before its body ended.'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'body_too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

/**
 * Limits on the shape of a JSON body, checked before any handler sees it: a deeply nested value can
 * overflow the stack of every later recursive step (validation, copying, writing the store), and long
 * arrays or strings multiply the work of one request.
 */
export interface JsonShapeLimits {
  maxDepth: number;
  maxArrayLength: number;
  maxStringLength: number;
  /** Keys of one object. */
  maxKeys: number;
}

export const DEFAULT_SHAPE: JsonShapeLimits = { maxDepth: 32, maxArrayLength: 10_000, maxStringLength: 100_000, maxKeys: 1_000 };

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const safe = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
  return parent === '' ? safe : `${parent}.${safe}`;
}

/** Throws a 400 naming the first place where `value` passes a limit; recursion stops at `maxDepth`. */
export function assertJsonShape(value: unknown, limits: JsonShapeLimits = DEFAULT_SHAPE, path = '', depth = 0): void {
  const where = path === '' ? 'the body' : path;
  if (typeof value === 'string') {
    if (value.length > limits.maxStringLength) throw new HttpError(400, 'invalid_body', `${where} is longer than ${limits.maxStringLength} characters.`, { field: path || undefined });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= limits.maxDepth) throw new HttpError(400, 'invalid_body', `${where} is nested deeper than ${limits.maxDepth} levels.`, { field: path || undefined });
  if (Array.isArray(value)) {
    if (value.length > limits.maxArrayLength) throw new HttpError(400, 'invalid_body', `${where} has more than ${limits.maxArrayLength} elements.`, { field: path || undefined });
    for (let i = 0; i < value.length; i++) assertJsonShape(value[i], limits, pathOf(path, i), depth + 1);
    return;
  }
  const keys = Object.keys(value);
  if (keys.length > limits.maxKeys) throw new HttpError(400, 'invalid_body', `${where} has more than ${limits.maxKeys} keys.`, { field: path || undefined });
  for (const key of keys) {
    if (key.length > limits.maxStringLength) throw new HttpError(400, 'invalid_body', `A key of ${where} is longer than ${limits.maxStringLength} characters.`, { field: path || undefined });
    assertJsonShape((value as Record<string, unknown>)[key], limits, pathOf(path, key), depth + 1);
  }
}

/** Parses JSON text, answering 400 with the position of the first syntax error, or naming the part past a shape limit. */
export function parseJson(text: string, shape: JsonShapeLimits = DEFAULT_SHAPE): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(400, 'invalid_json', `The request body is not valid JSON: ${reason}.`);
  }
  assertJsonShape(value, shape);
  return value;
}

/** Middleware that puts the parsed JSON body in `ctx.request.body`. */
export function jsonBody(options: BodyOptions = {}) {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  const shape = { ...DEFAULT_SHAPE, ...options.shape };
  return async function readJsonBody(ctx: Context, next: Next): Promise<void> {
    const type = mediaType(ctx);
    const isJson = type === 'application/json' || type.endsWith('+json');
    const isText = type === 'text/plain' && options.textPlainAsJson === true;
    if (!isJson && !isText) {
      const accepted = options.textPlainAsJson === true ? 'application/json or text/plain' : 'application/json';
      throw new HttpError(415, 'unsupported_media_type', `Send the body as ${accepted}${type === '' ? '; no Content-Type was given' : `, not ${type}`}.`, { field: 'Content-Type' });
    }
    const text = await readRawBody(ctx, limit);
    if (text.trim() === '') throw new HttpError(400, 'invalid_json', 'The request body is empty; a JSON value was expected.');
    ctx.request.body = parseJson(text, shape);
    await next();
  };
}

/** Reads an `application/x-www-form-urlencoded` body; other types are refused by the caller's own rules. */
export async function readFormBody(ctx: Context, limit = 64 * 1024): Promise<URLSearchParams> {
  return new URLSearchParams(await readRawBody(ctx, limit));
}

export function isFormRequest(ctx: Context): boolean {
  return mediaType(ctx) === 'application/x-www-form-urlencoded';
}
