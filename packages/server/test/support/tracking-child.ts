/** The real server in a child process over a given data directory, so that a test can kill it with SIGKILL; TRACKING_CHILD_CONFIG overrides the test configuration. */
import { startTestServer } from './test-server.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: tracking-child.ts <dataDir>');
const config = process.env.TRACKING_CHILD_CONFIG;
const server = await startTestServer({ dataDir, ...(config === undefined ? {} : { config: JSON.parse(config) as Record<string, unknown> }) });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
