/**
 * The connection to Redis: ioredis reconnects by itself with a back-off, and with the offline queue
 * off a command sent while Redis is away fails at once instead of waiting, so the callers fall back
 * to what they know locally. Unreachable at start: one RedisUnreachableError naming where.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

export class RedisUnreachableError extends Error {
  constructor(where: string, reason: string) {
    super(`Redis is unreachable at ${where}: ${reason}`);
    this.name = 'RedisUnreachableError';
  }
}

/** Host and port of a redis:// URL, for messages: the password is left out. */
function describeLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return '(an unreadable redis:// URL)';
  }
}

export async function connectRedis(url: string, logger?: Logger): Promise<Redis> {
  const where = describeLocation(url);
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let lastError = '';
  let started = false;
  redis.on('error', (error: Error) => {
    // Each failed reconnect emits an error: logged once per distinct message, not once per attempt,
    // and not before the first connection (the start-up error below says it in one line).
    if (error.message === lastError) return;
    lastError = error.message;
    if (started) logger?.warn({ err: error, at: where }, 'Redis connection error; reconnecting');
  });
  redis.on('ready', () => {
    if (lastError !== '') logger?.info({ at: where }, 'Redis connection back');
    lastError = '';
  });
  try {
    await redis.connect();
    started = true;
  } catch (error) {
    redis.disconnect();
    // The socket's own error (ECONNREFUSED...) says more than the rejection's "Connection is closed".
    throw new RedisUnreachableError(where, lastError || (error instanceof Error ? error.message : String(error)));
  }
  return redis;
}
