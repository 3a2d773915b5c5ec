/**
 * The server's structured logger, secrets redacted wherever they might appear. JSON lines for
 * machines (production, pipes, log collectors); one readable line per entry for a person at a
 * terminal (`npm run dev`).
 */
import { pino, type Logger, type LevelWithSilent } from 'pino';
import { prettyLogStream } from './pretty-log.js';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  /** Defaults to JSON lines. */
  format?: LogFormat;
  /** Where lines go; stdout by default. */
  destination?: NodeJS.WritableStream;
}

export function createLogger(level: LevelWithSilent = 'info', options: LoggerOptions = {}): Logger {
  const settings = {
    level,
    base: { service: 'discovery-kit' },
    redact: {
      paths: ['authorization', 'headers.authorization', 'client_assertion', 'client_secret', 'access_token', 'privateKey'],
      censor: '[redacted]',
    },
  };
  const destination = options.destination ?? process.stdout;
  if (options.format === 'pretty') return pino(settings, prettyLogStream(destination));
  return options.destination === undefined ? pino(settings) : pino(settings, destination);
}

/**
 * The format a process should log in: `LOG_FORMAT` when set, JSON in production or when stdout is
 * not a terminal (a pipe, a container's log driver), pretty otherwise.
 */
export function defaultLogFormat(env: NodeJS.ProcessEnv, stdoutIsTerminal: boolean): LogFormat {
  const asked = (env.LOG_FORMAT ?? '').toLowerCase();
  if (asked === 'json' || asked === 'pretty') return asked;
  if (env.NODE_ENV === 'production') return 'json';
  return stdoutIsTerminal ? 'pretty' : 'json';
}
