/** The runnable server: the Discovery Kit APIs plus the companion's own pages, over the configured data directory. */
import { createConsolePages, createDiscoveryServer, loadConfigFile, type DiscoveryServer, type Logger } from '@discovery-kit/server';
import { dirname, join } from 'node:path';
import type { CompanionOptions } from './options.js';
import { seedDemoActivities, seedDemoCatalog } from './demo-seed.js';
import { loadDemoCatalog } from './demo-data.js';
import { createSdkApi } from './sdk-api.js';
import { createStorefrontApi, type StorefrontOptions } from '@discovery-kit/storefront';

export interface RunningCompanion {
  server: DiscoveryServer;
  url: string;
}

export async function startCompanion(options: CompanionOptions, logger: Logger): Promise<RunningCompanion> {
  const config = loadConfigFile(options.configFile);
  // The console's bundle is built beside the SDK's (dist/console next to dist/sdk).
  const extraApis = [createSdkApi(options.sdkDir), createConsolePages(join(dirname(options.sdkDir), 'console'))];
  if (options.demo) extraApis.push(createStorefrontApi(demoStorefront(await loadDemoCatalog())));
  const server = await createDiscoveryServer({ config, dataDir: options.dataDir, logger, extraApis });
  try {
    // Activities follow the catalog's first seeding only: a restart must not import the history twice.
    if (options.demo && (await seedDemoCatalog(server, logger)) && options.demoActivities !== false) await seedDemoActivities(server, logger);
    const { url } = await server.listen(options.port, options.host);
    return { server, url };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** The demo shop at /shop/: the demo catalog, the demo tracker key and search token, and the demo widgets. */
function demoStorefront(products: Awaited<ReturnType<typeof loadDemoCatalog>>): StorefrontOptions {
  return {
    products,
    trackerKey: 'demo-tracker-key',
    searchToken: 'demo-search-token',
    widgets: {
      home: ['demo-personalized', 'demo-recently-viewed', 'demo-trending'],
      product: ['demo-bought-together', 'demo-similar', 'demo-also-viewed', 'demo-same-category'],
      category: 'demo-top-sellers',
      afterPurchase: 'demo-personalized',
      email: 'demo-popular',
    },
    emailDatasource: 'crm',
    locale: 'en-GB',
  };
}
