/** The runnable server: the Discovery Kit APIs plus the companion's own pages, over the configured data directory. */
import { createDiscoveryServer, loadConfigFile, type DiscoveryServer, type Logger } from '@discovery-kit/server';
import type { CompanionOptions } from './options.js';
import { seedDemoCatalog } from './demo-seed.js';

export interface RunningCompanion {
  server: DiscoveryServer;
  url: string;
}

export async function startCompanion(options: CompanionOptions, logger: Logger): Promise<RunningCompanion> {
  const config = loadConfigFile(options.configFile);
  const server = await createDiscoveryServer({ config, dataDir: options.dataDir, logger });
  try {
    if (options.demo) await seedDemoCatalog(server, logger);
    const { url } = await server.listen(options.port, options.host);
    return { server, url };
  } catch (error) {
    await server.close();
    throw error;
  }
}
