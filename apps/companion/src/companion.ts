/** The runnable server: the Discovery Kit APIs plus the companion's own pages, over the configured data directory. */
import { connectRedis, createConsolePages, createDiscoveryServer, loadConfigFile, openPostgresStorage, RedisFoldLagBoard, RedisRateWindows, RedisSharedClaims, type DiscoveryServer, type Logger } from '@discovery-kit/server';
import { dirname, join } from 'node:path';
import type { CompanionOptions } from './options.js';
import { seedDemoActivities, seedDemoCatalog } from './demo-seed.js';
import { loadDemoCatalog } from './demo-data.js';
import { createSdkApi } from './sdk-api.js';
import { createProgress, type Progress } from './progress.js';
import type { StartupGate } from './startup-gate.js';
import { createStorefrontApi, type StorefrontOptions } from '@discovery-kit/storefront';

export interface RunningCompanion {
  server: DiscoveryServer;
  url: string;
  /** The demo history still importing after the server became ready (first demo start with a gate). */
  history?: Promise<number>;
  /** Stops taking requests, lets those in flight finish, stops the history import, flushes every write. */
  close(): Promise<void>;
}

export interface StartOptions {
  /**
   * A socket already listening (main.ts opens it first, so the port answers at once). With it, the
   * first demo start imports the shoppers' history after the server is ready, in the background,
   * as if shoppers were sending it; without it, the history is imported before this resolves.
   */
  gate?: StartupGate;
  /** Prints the history import's progress on stderr. */
  showProgress?: boolean;
}

export async function startCompanion(options: CompanionOptions, logger: Logger, start: StartOptions = {}): Promise<RunningCompanion> {
  const config = loadConfigFile(options.configFile);
  // The console's bundle is built beside the SDK's (dist/console next to dist/sdk).
  const extraApis = [createSdkApi(options.sdkDir), createConsolePages(join(dirname(options.sdkDir), 'console'))];
  if (options.demo) extraApis.push(createStorefrontApi(demoStorefront(await loadDemoCatalog())));
  // With --redis, rate limits and idempotency keys are decided by every process together; reached first, so that a wrong URL stops the start at once.
  const redis = options.redisUrl === undefined ? undefined : await connectRedis(options.redisUrl, logger);
  let server: DiscoveryServer;
  try {
    // With --store, PostgreSQL holds what the data directory would (the directory is not used).
    const storage = options.storeUrl === undefined ? undefined : await openPostgresStorage({ url: options.storeUrl, logger });
    server = await createDiscoveryServer({
      config,
      dataDir: options.dataDir,
      logger,
      extraApis,
      ...(options.trains === false ? { trains: false } : {}),
      ...(storage === undefined ? {} : { store: storage.store, eventLogs: storage.eventLogs, blobs: storage.blobs }),
      ...(redis === undefined ? {} : { rateWindows: new RedisRateWindows(redis), sharedClaims: new RedisSharedClaims(redis), foldLagBoard: new RedisFoldLagBoard(redis) }),
      ...(options.ingestOnly === true ? { ingestOnly: true } : {}),
    });
  } catch (error) {
    redis?.disconnect();
    throw error;
  }
  if (redis !== undefined) server.deps.onClose(async () => void (await redis.quit().catch(() => redis.disconnect())));
  const stopHistory = new AbortController();
  let history: Promise<number> | undefined;
  try {
    // Activities follow the catalog's first seeding only: a restart must not import the history twice.
    const seeded = options.demo && (await seedDemoCatalog(server, logger));
    if (seeded && options.demoActivities !== false) {
      history = importHistory(server, logger, stopHistory.signal, start.showProgress === true);
      if (start.gate === undefined) await history;
    }
    let url: string;
    if (start.gate === undefined) ({ url } = await server.listen(options.port, options.host));
    else {
      start.gate.open(server.app.callback(), config.limits);
      url = start.gate.url;
    }
    const running: RunningCompanion = {
      server,
      url,
      async close() {
        await start.gate?.close();
        stopHistory.abort();
        await history?.catch(() => 0);
        await server.close();
      },
    };
    if (history !== undefined) running.history = history;
    return running;
  } catch (error) {
    stopHistory.abort();
    await history?.catch(() => 0);
    await server.close();
    throw error;
  }
}

function importHistory(server: DiscoveryServer, logger: Logger, signal: AbortSignal, showProgress: boolean): Promise<number> {
  let progress: Progress | undefined;
  return seedDemoActivities(server, logger, {
    signal,
    onProgress(done, total) {
      progress ??= createProgress({ label: 'Importing the demo shoppers\' history', total, enabled: showProgress });
      progress.update(done);
      if (done === total) progress.finish('recommendations now use all of it');
    },
  }).catch((error: unknown) => {
    logger.error({ err: error }, 'the demo history import failed');
    throw error;
  });
}

/** The demo shop at /shop/: the demo catalog, the demo tracker key and search token, and the demo widgets. */
function demoStorefront(products: Awaited<ReturnType<typeof loadDemoCatalog>>): StorefrontOptions {
  return {
    products,
    trackerKey: 'demo-tracker-key',
    searchToken: 'demo-search-token',
    widgets: {
      // Recently viewed last: empty for a new shopper, it then collapses below the fold rather than moving the page.
      // Buy it again after "Picked for you": a returning shopper's reorders; empty (and collapsed) for a new one.
      home: ['demo-personalized', 'demo-buy-again', 'demo-trending', 'demo-recently-viewed'],
      product: ['demo-bought-together', 'demo-similar', 'demo-also-viewed', 'demo-same-category'],
      category: 'demo-top-sellers',
      searchEmpty: 'demo-popular',
      // Recently viewed and Buy it again keep what they exist to show; the other widgets leave those products out.
      pickFirst: ['demo-recently-viewed', 'demo-buy-again'],
      afterPurchase: 'demo-personalized',
      email: 'demo-popular',
    },
    emailDatasource: 'crm',
    // The French texts of a handful of products (demo/data/translations.json): /shop/search.html?q=sac&lang=fr
    languages: ['fr'],
    locale: 'en-GB',
  };
}
