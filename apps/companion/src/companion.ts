/** The runnable server: the Discovery Kit APIs plus the companion's own pages, over the configured data directory. */
import { createDiscoveryServer, loadConfigFile, type DiscoveryServer, type Logger } from '@discovery-kit/server';
import type { CompanionOptions } from './options.js';
import { seedDemoActivities, seedDemoCatalog } from './demo-seed.js';

export interface RunningCompanion {
  server: DiscoveryServer;
  url: string;
}

export async function startCompanion(options: CompanionOptions, logger: Logger): Promise<RunningCompanion> {
  const config = loadConfigFile(options.configFile);
  const server = await createDiscoveryServer({ config, dataDir: options.dataDir, logger });
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
