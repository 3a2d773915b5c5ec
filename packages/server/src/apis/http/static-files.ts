/**
 * Serves the files of one directory (the built browser bundle, the storefront's assets): flat names
 * only, so no request can reach outside it; gzip when the client accepts it; ETag revalidation.
 * Files are read once and kept in memory until they change on disk (they are small and few).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context } from 'koa';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file name without directories, dot files or anything a path could be made of. */
const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  gzipped: Buffer | undefined;
  type: string;
  etag: string;
}

export interface StaticDirectoryOptions {
  /** `Cache-Control` of every answer. */
  cacheControl: string;
}

export class StaticDirectory {
  private readonly cache = new Map<string, CachedFile>();

  constructor(
    readonly directory: string,
    private readonly options: StaticDirectoryOptions,
  ) {}

  /** Answers `ctx` with the file `name`; returns false (and leaves `ctx` alone) when there is no such file. */
  async serve(ctx: Context, name: string): Promise<boolean> {
    const file = await this.read(name);
    if (file === undefined) return false;
    ctx.set('Cache-Control', this.options.cacheControl);
    ctx.set('ETag', file.etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.vary('Accept-Encoding');
    ctx.type = file.type;
    if (ctx.get('If-None-Match') === file.etag) {
      ctx.status = 304;
      return true;
    }
    if (file.gzipped !== undefined && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = file.gzipped;
    } else {
      ctx.body = file.body;
    }
    return true;
  }

  private async read(name: string): Promise<CachedFile | undefined> {
    if (!SAFE_NAME.test(name)) return undefined;
    const type = TYPES[extname(name)];
    if (type === undefined) return undefined;
    const path = join(this.directory, name);
    let info;
    try {
      info = await stat(path);
    } catch {
      return undefined;
    }
    if (!info.isFile()) return undefined;
    const cached = this.cache.get(name);
    if (cached !== undefined && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
    const body = await readFile(path);
    const compressible = !type.startsWith('image/png') && !type.startsWith('image/x-icon');
    const file: CachedFile = {
      mtimeMs: info.mtimeMs,
      size: info.size,
      body,
      gzipped: compressible && body.length > 512 ? gzipSync(body, { level: 9 }) : undefined,
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    };
    this.cache.set(name, file);
    return file;
  }
}
