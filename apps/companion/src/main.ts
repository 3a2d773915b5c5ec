/** Entry point of `npm run dev`: loads the configuration, starts every API on one port, and shuts down cleanly on a signal. */
import { ConfigError, DataDirectoryLockedError, createLogger } from '@discovery-kit/server';
import { startCompanion } from './companion.js';
import { USAGE, UsageError, parseCompanionOptions } from './options.js';

async function main(): Promise<void> {
  const options = parseCompanionOptions(process.argv.slice(2), process.env);
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const logger = createLogger(options.logLevel as 'info');
  const companion = await startCompanion(options, logger);
  logger.info({ url: companion.url, dataDir: options.dataDir, config: options.configFile, demo: options.demo }, 'Discovery Kit is listening');
  console.error(`\nDiscovery Kit is listening on ${companion.url} (health: ${companion.url}/health). Ctrl-C stops it.\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests and flushing writes');
    companion.server.close().then(
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
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof DataDirectoryLockedError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
