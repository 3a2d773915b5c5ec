/** The companion's start-up options, from the command line first, then the environment, then defaults. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
// The one constant the options need, from a module with no dependencies: options load before the port opens.
import { DEFAULT_HEAP_GROWTH_PERCENT } from '@discovery-kit/server/heap-growth';

export const DEMO_CONFIG = fileURLToPath(new URL('../config/demo.json', import.meta.url));
export const DEFAULT_SDK_DIR = fileURLToPath(new URL('../../../dist/sdk/', import.meta.url));

export interface CompanionOptions {
  configFile: string;
  port: number;
  host: string;
  dataDir: string;
  /** Load the demo catalog and shopper history into an empty data directory. */
  demo: boolean;
  /** With `demo`, also import the demo shoppers' history (env DEMO_ACTIVITIES=off skips it, for quick starts and tests). */
  demoActivities?: boolean;
  logLevel: string;
  /** json or pretty; undefined picks by context (defaultLogFormat: pretty on a terminal, JSON otherwise and in production). */
  logFormat?: 'json' | 'pretty';
  /** The built browser bundle served at /sdk/ (env SDK_DIR; default dist/sdk of this checkout). */
  sdkDir: string;
  /** postgres://… : documents, activity logs and models in PostgreSQL instead of the data directory (docs/scale-out.md). */
  storeUrl?: string;
  /** redis://… : rate limits, assertion ids and idempotency keys shared by every process (docs/scale-out.md). */
  redisUrl?: string;
  /** How far the heap may grow past the live data between full collections, in percent (0: V8's own; docs/operations.md). */
  heapGrowthPercent?: number;
  /** False (--no-training, env TRAINING=off): never train recommendation models, load what another process on the shared store trains. */
  trains?: boolean;
  /** True (--ingest-only, env INGEST_ONLY=on): only take activities, fold none; serving companions fold them (docs/scale-out.md, "An ingest tier"). */
  ingestOnly?: boolean;
}

export class UsageError extends Error {}

export const USAGE = `Usage: npm run dev -- [options]

  --config <file>    configuration file (env CONFIG; default: the demo configuration)
  --port <n>         port to listen on (env PORT; default 8787)
  --host <addr>      address to bind (env HOST; default 127.0.0.1)
  --data-dir <dir>   data directory (env DATA_DIR; default ./.data)
  --store <url>      postgres://user:password@host:port/db: keep everything in PostgreSQL, so that
                     several companions serve one shop (env STORE_URL; default: the data directory)
  --redis <url>      redis://host:port: short-lived state shared by those companions (env REDIS_URL)
  --no-demo          start without demo data or the demo shop, as in production (env DEMO=off)
  --log-level <lvl>  trace, debug, info, warn, error or silent (env LOG_LEVEL; default info)
  --log-format <f>   pretty or json (env LOG_FORMAT; default pretty on a terminal, json otherwise
                     and whenever NODE_ENV=production)
  --no-training      never train recommendation models here: load those another companion on the
                     same --store trains (env TRAINING=off; docs/scale-out.md). Needs --store
  --ingest-only      only take activities (the collection APIs), fold none: companions without it
                     fold them from the shared log and answer everything else, which is answered
                     421 here (env INGEST_ONLY=on; docs/scale-out.md). Needs --store and --redis
  --heap-growth <p>  percent the heap may grow past the live data before a full collection
                     (env HEAP_GROWTH_PERCENT; default ${DEFAULT_HEAP_GROWTH_PERCENT}; 0 leaves it to V8: up to 4x)
  --help             show this text`;

export function parseCompanionOptions(argv: string[], env: NodeJS.ProcessEnv): CompanionOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        store: { type: 'string' },
        redis: { type: 'string' },
        'no-demo': { type: 'boolean' },
        'log-level': { type: 'string' },
        'log-format': { type: 'string' },
        'heap-growth': { type: 'string' },
        'no-training': { type: 'boolean' },
        'ingest-only': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (values.help === true) return 'help';
  const portText = values.port ?? env.PORT ?? '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`The port must be an integer from 0 to 65535, not "${portText}".`);
  const demoOff = values['no-demo'] === true || ['off', '0', 'false', 'no'].includes((env.DEMO ?? '').toLowerCase());
  const configFile = values.config ?? env.CONFIG;
  if (demoOff && configFile === undefined) {
    throw new UsageError('Without demo data, give your own configuration with --config <file> (or CONFIG=<file>).');
  }
  const logFormat = values['log-format'];
  if (logFormat !== undefined && logFormat !== 'json' && logFormat !== 'pretty') throw new UsageError(`--log-format must be json or pretty, not "${logFormat}".`);
  const growthText = values['heap-growth'] ?? env.HEAP_GROWTH_PERCENT ?? String(DEFAULT_HEAP_GROWTH_PERCENT);
  const heapGrowthPercent = Number(growthText);
  if (!/^\d+$/.test(growthText) || heapGrowthPercent > 400) throw new UsageError(`--heap-growth must be an integer percentage from 0 to 400, not "${growthText.slice(0, 20)}".`);
  const storeUrl = values.store ?? env.STORE_URL;
  if (storeUrl !== undefined && !/^postgres(ql)?:\/\//.test(storeUrl)) throw new UsageError(`--store takes a postgres:// URL, not "${storeUrl.slice(0, 40)}".`);
  const noTraining = values['no-training'] === true || ['off', '0', 'false', 'no'].includes((env.TRAINING ?? '').toLowerCase());
  // Alone on its data directory a process is the only one that could train: its recommendations would never learn.
  if (noTraining && storeUrl === undefined) throw new UsageError('--no-training (TRAINING=off) needs --store: a companion alone on its data directory is the only one that can train its models.');
  const redisUrl = values.redis ?? env.REDIS_URL;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) throw new UsageError(`--redis takes a redis:// URL, not "${redisUrl.slice(0, 40)}".`);
  const ingestOnly = values['ingest-only'] === true || ['on', '1', 'true', 'yes'].includes((env.INGEST_ONLY ?? '').toLowerCase());
  if (ingestOnly && (storeUrl === undefined || redisUrl === undefined)) throw new UsageError('--ingest-only (INGEST_ONLY=on) needs --store and --redis: the companions that fold its activities read them from the shared log, and it reads how far behind they are from Redis.');
  return {
    ...(logFormat === undefined ? {} : { logFormat }),
    ...(storeUrl === undefined ? {} : { storeUrl }),
    ...(redisUrl === undefined ? {} : { redisUrl }),
    configFile: resolve(configFile ?? DEMO_CONFIG),
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    dataDir: resolve(values['data-dir'] ?? env.DATA_DIR ?? '.data'),
    demo: !demoOff,
    demoActivities: !['off', '0', 'false', 'no'].includes((env.DEMO_ACTIVITIES ?? '').toLowerCase()),
    logLevel: values['log-level'] ?? env.LOG_LEVEL ?? 'info',
    sdkDir: resolve(env.SDK_DIR ?? DEFAULT_SDK_DIR),
    heapGrowthPercent,
    ...(noTraining || ingestOnly ? { trains: false } : {}),
    ...(ingestOnly ? { ingestOnly: true } : {}),
  };
}
