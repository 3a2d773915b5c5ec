/**
 * Entry point of `npm run dev` and `npm start`: takes the data directory's lock, opens the port at once
 * (answering 503 on /ready while loading), loads the configuration, store, indexes and aggregates, then
 * serves every API; SIGINT or SIGTERM drains requests and flushes every write before exiting.
 */
import { claimDataDirectory } from '@discovery-kit/server/data-dir-lock';
import type { RunningCompanion } from './companion.js';
import { USAGE, UsageError, parseCompanionOptions } from './options.js';
import { openStartupGate, type StartupGate } from './startup-gate.js';

// Only the small modules above load before the port opens; the server and its libraries take
// a while to load (seconds under tsx), so they are imported after.

async function main(): Promise<void> {
  const options = parseCompanionOptions(process.argv.slice(2), process.env);
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const started = performance.now();
  // The lock first: a second server on this data directory is refused before it binds the port or says it
  // listens. With --store the directory is not used (several processes share the PostgreSQL store).
  const releaseLock = options.storeUrl === undefined ? claimDataDirectory(options.dataDir) : undefined;
  let gate: StartupGate;
  try {
    gate = await openStartupGate(options.port, options.host);
  } catch (error) {
    releaseLock?.();
    throw error;
  }
  console.error(`\nDiscovery Kit is listening on ${gate.url} (health: ${gate.url}/health, ready: ${gate.url}/ready). Ctrl-C stops it.`);
  const [{ createLogger, defaultLogFormat, limitHeapGrowth, DEFAULT_HEAP_GROWTH_PERCENT }, { startCompanion }] = await Promise.all([import('@discovery-kit/server'), import('./companion.js')]);
  const format = options.logFormat ?? defaultLogFormat(process.env, process.stdout.isTTY === true);
  const logger = createLogger(options.logLevel as 'info', { format });

  let companion: RunningCompanion | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests and flushing writes');
    // While still loading, the start-up below notices `stopping` and closes what it opened.
    if (companion === undefined) return;
    companion.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  try {
    companion = await startCompanion(options, logger, { gate, showProgress: options.logLevel !== 'silent' });
  } catch (error) {
    await gate.close();
    releaseLock?.();
    throw error;
  }
  // The heap's growth is limited once the start is done, not during it: the start's restore allocates
  // its whole state at once, and at 1.3 × the live data each growth step was a full collection (a
  // restart from a snapshot of 1,000,000 activities: 3.65 s with the limit, 2.70 s without; its peak
  // RSS the same, 802 against 812 MB). A flood of traffic, which the limit is for, comes after.
  limitHeapGrowth(options.heapGrowthPercent ?? DEFAULT_HEAP_GROWTH_PERCENT);
  const readyMs = Math.round(performance.now() - started);
  logger.info({ url: companion.url, dataDir: options.dataDir, config: options.configFile, demo: options.demo, readyMs }, 'Discovery Kit is ready');
  console.error(`Discovery Kit is ready after ${(readyMs / 1000).toFixed(1)} s: ${companion.url}/ready answers 200.\n`);
  companion.history?.catch(() => undefined);
  if (stopping) {
    stopping = false;
    stop('signal during start-up');
  }
}

/** Errors an operator fixes (options, configuration, a second server on one data directory, an engine out of reach): the message alone. */
const OPERATOR_ERRORS = new Set(['ConfigError', 'DataDirectoryLockedError', 'PostgresUnreachableError', 'RedisUnreachableError']);

main().catch((error: unknown) => {
  if (error instanceof UsageError || (error instanceof Error && OPERATOR_ERRORS.has(error.constructor.name))) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
