/** The server's structured logger: JSON lines on stdout, secrets redacted wherever they might appear. */
import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

export function createLogger(level: LevelWithSilent = 'info'): Logger {
  return pino({
    level,
    base: { service: 'discovery-kit' },
    redact: {
      paths: ['authorization', 'headers.authorization', 'client_assertion', 'client_secret', 'access_token', 'privateKey'],
      censor: '[redacted]',
    },
  });
}
