/** The real server in a child process over a given data directory, so that a test can kill it with SIGKILL. */
import { startTestServer } from './test-server.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: tracking-child.ts <dataDir>');
const server = await startTestServer({ dataDir });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
