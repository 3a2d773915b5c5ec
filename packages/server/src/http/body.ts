/** Reads request bodies with a size limit and a content-type check, so no body can exhaust memory or reach a handler unparsed. */
import type { Context, Next } from 'koa';
import { HttpError } from './errors.js';
import './koa-augment.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export type BodyKind = 'json' | 'form';

export interface BodyOptions {
  /** Largest body accepted, in bytes. */
  limit?: number;
  /** Accept `text/plain` as JSON: `navigator.sendBeacon` sends strings that way and cannot set a JSON type. */
  textPlainAsJson?: boolean;
}

function mediaType(ctx: Context): string {
  return (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
}

/** Reads the raw body, refusing it with 413 as soon as it passes `limit` bytes. */
export async function readRawBody(ctx: Context, limit: number): Promise<string> {
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      ctx.req.resume();
      throw tooLarge(limit);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'body_too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

/** Parses JSON text, answering 400 with the position of the first syntax error. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(400, 'invalid_json', `The request body is not valid JSON: ${reason}.`);
  }
}

/** Middleware that puts the parsed JSON body in `ctx.request.body`. */
export function jsonBody(options: BodyOptions = {}) {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
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
    ctx.request.body = parseJson(text);
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

export function isJsonRequest(ctx: Context): boolean {
  const type = mediaType(ctx);
  return type === 'application/json' || type.endsWith('+json');
}
