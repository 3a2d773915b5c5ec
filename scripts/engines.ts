/**
 * `npm run engines`: starts a throwaway PostgreSQL and Redis (Debian's packages, installed with apt-get
 * when root) on free local ports, prints their URLs for `npm run dev -- --store … --redis …`, and
 * deletes both when stopped with Ctrl-C. The tests and `npm run bench -- scale-out` start their own.
 */
import { startPostgres, startRedis } from '../packages/server/test/support/engines.js';

const postgres = await startPostgres({ durable: true });
const redis = await startRedis();
console.log(`PostgreSQL: ${postgres.url}\nRedis:      ${redis.url}\n`);
console.log(`npm run dev -- --store ${postgres.url} --redis ${redis.url} --port 8788 --data-dir .data-unused`);
console.log('\nCtrl-C stops both and deletes their data.');
setInterval(() => undefined, 1 << 30);
