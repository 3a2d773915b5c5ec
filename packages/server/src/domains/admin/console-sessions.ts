/**
 * Console sign-in for people: a username and password (scrypt hash in the configuration) become a
 * signed session that the admin API reads from an HttpOnly cookie, with a CSRF token bound to it.
 * Sessions are stateless (HMAC over a short payload with a secret kept in the store), so a restart
 * keeps people signed in; sign-out revokes the session id until it would have expired anyway, in a
 * store document, so that the revocation outlives a restart and reaches every process on a shared
 * store (each reloads the document when another commits it).
 */
import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { ConfigRegistry } from '../../platform/config/registry.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import { DomainError } from '../../platform/domain-error.js';

export const SESSION_COOKIE = 'dk_console';
export const SESSION_HOURS = 8;
/** Failed sign-ins allowed within the window before the username is locked for LOCK_MINUTES. */
export const MAX_FAILURES = 5;
export const LOCK_MINUTES = 15;
const MAX_REVOKED = 10_000;

export interface ConsoleSession {
  tenantId: string;
  username: string;
  role: 'read' | 'edit';
  sessionId: string;
  expiresAt: number;
}

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** `scrypt:<N>:<r>:<p>:<salt>:<hash>` for the configuration file (`npm run console:password`). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const [N, r, p] = [16384, 8, 1];
  const key = await scryptAsync(password, salt, 32, { N, r, p });
  return `scrypt:${N}:${r}:${p}:${salt.toString('base64url')}:${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split(':');
  if (scheme !== 'scrypt' || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const N = Number(n);
  // Parameters come from the operator's own file, but a typo must not make one sign-in eat all memory.
  if (!(N >= 2 && N <= 1 << 20) || Number(r) > 32 || Number(p) > 16) return false;
  const key = await scryptAsync(password, Buffer.from(salt!, 'base64url'), expected.length, { N, r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024 });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Spent on unknown usernames so that their answer takes as long as a wrong password's. */
const DECOY_HASH = 'scrypt:16384:8:1:AAAAAAAAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Signed-out session ids and when each session would have expired. */
interface RevokedSessions {
  revoked: Record<string, number>;
}

/** `tenant/username` of configured users → the times of their failed sign-ins within the lock window. */
interface SignInFailures {
  failures: Record<string, number[]>;
}

export class ConsoleSessions {
  private constructor(
    private readonly secret: Buffer,
    private readonly revocations: StoredDocument<RevokedSessions>,
    /** In the store, so that every process of a shared store counts the same failures, and a restart forgets none. */
    private readonly failures: StoredDocument<SignInFailures>,
    private readonly registry: ConfigRegistry,
    private readonly clock: Clock,
  ) {}

  static async open(deps: { store: DocumentStore; registry: ConfigRegistry; clock: Clock }): Promise<ConsoleSessions> {
    const doc = await deps.store.document<{ secret: string }>('admin/session-secret', () => ({ secret: '' }));
    // Decided inside the update (the row locked and re-read): processes starting together keep one secret.
    if (doc.data.secret === '') await doc.update((data) => void (data.secret ||= randomBytes(32).toString('base64url')));
    const revocations = await deps.store.document<RevokedSessions>('admin/revoked-sessions', () => ({ revoked: {} }));
    const failures = await deps.store.document<SignInFailures>('admin/sign-in-failures', () => ({ failures: {} }));
    return new ConsoleSessions(Buffer.from(doc.data.secret, 'base64url'), revocations, failures, deps.registry, deps.clock);
  }

  /** Checks the password; returns the cookie value and its session, or refuses (locked after MAX_FAILURES). */
  async signIn(tenantId: string, username: string, password: string): Promise<{ cookie: string; session: ConsoleSession }> {
    const now = this.clock.now();
    const user = this.registry.findTenant(tenantId)?.consoleUsers.find((u) => u.username === username);
    const lockKey = `${tenantId}/${username}`;
    const since = now - LOCK_MINUTES * 60_000;
    const recent = (Object.hasOwn(this.failures.data.failures, lockKey) ? this.failures.data.failures[lockKey]! : []).filter((at) => at > since);
    if (recent.length >= MAX_FAILURES) {
      const retryAfter = Math.ceil((recent[recent.length - MAX_FAILURES]! + LOCK_MINUTES * 60_000 - now) / 1000);
      throw new DomainError('rate_limited', `Too many failed sign-ins for this user; try again in ${Math.ceil(retryAfter / 60)} minutes.`, { retryAfterSeconds: retryAfter });
    }
    const ok = await verifyPassword(password, user?.passwordHash ?? DECOY_HASH);
    if (user === undefined || !ok) {
      // Only configured users are counted, so strangers cannot grow this record with made-up names.
      if (user !== undefined) {
        await this.failures.update((data) => {
          for (const [key, times] of Object.entries(data.failures)) if (!times.some((at) => at > since)) delete data.failures[key];
          const kept = (Object.hasOwn(data.failures, lockKey) ? data.failures[lockKey]! : []).filter((at) => at > since);
          // `tenant/username` holds a slash, so it can never be `__proto__`: a plain key.
          data.failures[lockKey] = [...kept, now].slice(-MAX_FAILURES);
        });
      }
      throw new DomainError('unauthorized', 'Unknown tenant, username or password.', { field: 'password' });
    }
    if (Object.hasOwn(this.failures.data.failures, lockKey)) await this.failures.update((data) => void delete data.failures[lockKey]);
    const session: ConsoleSession = { tenantId, username, role: user.role, sessionId: randomBytes(12).toString('base64url'), expiresAt: now + SESSION_HOURS * 3_600_000 };
    const payload = Buffer.from(JSON.stringify({ t: tenantId, u: username, s: session.sessionId, e: session.expiresAt })).toString('base64url');
    return { cookie: `${payload}.${this.sign(payload)}`, session };
  }

  /** The session behind a cookie value, with the user's current role; undefined when forged, expired, revoked or the user is gone. */
  read(cookie: string | undefined): ConsoleSession | undefined {
    if (cookie === undefined || cookie.length > 1024) return undefined;
    const [payload, signature] = cookie.split('.');
    if (payload === undefined || signature === undefined) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    let data: { t?: unknown; u?: unknown; s?: unknown; e?: unknown };
    try {
      data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof data;
    } catch {
      return undefined;
    }
    if (typeof data.t !== 'string' || typeof data.u !== 'string' || typeof data.s !== 'string' || typeof data.e !== 'number') return undefined;
    if (data.e <= this.clock.now() || Object.hasOwn(this.revocations.data.revoked, data.s)) return undefined;
    const user = this.registry.findTenant(data.t)?.consoleUsers.find((u) => u.username === data.u);
    if (user === undefined) return undefined;
    return { tenantId: data.t, username: data.u, role: user.role, sessionId: data.s, expiresAt: data.e };
  }

  /** The token the console echoes in `X-CSRF-Token` on every change: a page of another site cannot read it. */
  csrfToken(session: ConsoleSession): string {
    return this.sign(`csrf:${session.sessionId}`);
  }

  checkCsrf(session: ConsoleSession, token: string | undefined): boolean {
    if (token === undefined) return false;
    const expected = Buffer.from(this.csrfToken(session));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Revokes the session on every process, durably: resolves once the revocation is stored. */
  async signOut(session: ConsoleSession): Promise<void> {
    const now = this.clock.now();
    await this.revocations.update((data) => {
      for (const [id, expires] of Object.entries(data.revoked)) if (expires <= now) delete data.revoked[id];
      // Past the cap the sessions closest to expiring lose their revocation first.
      const kept = Object.entries(data.revoked);
      if (kept.length >= MAX_REVOKED) {
        kept.sort((a, b) => a[1] - b[1]);
        for (const [id] of kept.slice(0, kept.length - MAX_REVOKED + 1)) delete data.revoked[id];
      }
      // A session id is 16 base64url characters of random bytes, never `__proto__`: a plain key.
      data.revoked[session.sessionId] = session.expiresAt;
    });
  }

  private sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
}
