/** `npm run account -- create`: registers an account in a copy of a configuration, and the account then gets tokens. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTokenProvider } from '@discovery-kit/client';
import { createDiscoveryServer, createLogger, loadConfigFile } from '@discovery-kit/server';

const CLI = fileURLToPath(new URL('../src/account-cli.ts', import.meta.url));
const DEMO_PUBLIC_KEY = fileURLToPath(new URL('../demo/keys/demo-service-account.public.pem', import.meta.url));

function runCli(args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8', env: { ...process.env, CONFIG: '' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('account CLI', () => {
  let dir: string;
  let configFile: string;
  const initial = { tenants: [{ id: 'shop', environments: [{ id: 'prod' }] }] };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'discovery-account-'));
    configFile = join(dir, 'config.json');
    await writeFile(configFile, `${JSON.stringify(initial, null, 2)}\n`);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('generates a key pair, registers the account, and the account then gets a token', async () => {
    const out = join(dir, 'secrets');
    const res = runCli(['create', '--tenant', 'shop', '--client-id', 'shop-backoffice', '--out', out, '--config', configFile]);
    assert.equal(res.status, 0, res.stderr);
    const privateKeyFile = join(out, 'shop-backoffice.private.pem');
    assert.match(res.stdout, /^client id: {3}shop-backoffice$/m);
    assert.match(res.stdout, /^tenant id: {3}shop$/m);
    assert.ok(res.stdout.includes(`private key: ${privateKeyFile} (mode 600`));
    assert.equal((await stat(privateKeyFile)).mode & 0o777, 0o600);
    const saved = JSON.parse(await readFile(configFile, 'utf8'));
    assert.deepEqual(saved.tenants[0].serviceAccounts, [{ clientId: 'shop-backoffice', realm: 'tenant', publicKeyFile: 'keys/shop-backoffice.public.pem' }]);

    const server = await createDiscoveryServer({ config: loadConfigFile(configFile), dataDir: join(dir, 'data'), logger: createLogger('silent') });
    try {
      const { url } = await server.listen(0);
      const provider = createTokenProvider({
        tokenUrl: `${url}/auth/realms/shop/protocol/openid-connect/token`,
        clientId: 'shop-backoffice',
        privateKeyPem: await readFile(privateKeyFile, 'utf8'),
      });
      const info = await fetch(`${url}/auth/realms/shop/token-info`, { headers: { authorization: await provider.authorization() } });
      assert.equal(info.status, 200);
      assert.equal(((await info.json()) as { tenant: string }).tenant, 'shop');
    } finally {
      await server.close();
    }
  });

  it('registers a given public key for the master realm, without writing a private key', async () => {
    const res = runCli(['create', '--tenant', 'shop', '--realm', 'master', '--public-key', DEMO_PUBLIC_KEY, '--config', configFile]);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^realm: {7}master$/m);
    assert.match(res.stdout, /private key: yours/);
    const saved = JSON.parse(await readFile(configFile, 'utf8'));
    const account = saved.tenants[0].serviceAccounts[1];
    assert.equal(account.realm, 'master');
    assert.match(account.clientId, /^shop-legacy-[0-9a-f]{8}$/);
    assert.equal(await readFile(join(dir, account.publicKeyFile), 'utf8'), await readFile(DEMO_PUBLIC_KEY, 'utf8'));
  });

  it('refuses a duplicate client id, an unknown tenant and a key that is not RSA, leaving the file as it was', async () => {
    const before = await readFile(configFile, 'utf8');
    const duplicate = runCli(['create', '--tenant', 'shop', '--client-id', 'shop-backoffice', '--out', dir, '--config', configFile]);
    assert.equal(duplicate.status, 2);
    assert.match(duplicate.stderr, /The client id "shop-backoffice" is already registered/);
    const unknown = runCli(['create', '--tenant', 'nope', '--config', configFile]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /No tenant "nope" in .*; tenants: shop\./);
    const notAKey = join(dir, 'not-a-key.pem');
    await writeFile(notAKey, 'hello');
    const badKey = runCli(['create', '--tenant', 'shop', '--public-key', notAKey, '--config', configFile]);
    assert.equal(badKey.status, 2);
    assert.match(badKey.stderr, /is not a PEM public key/);
    const noCommand = runCli(['--tenant', 'shop', '--config', configFile]);
    assert.equal(noCommand.status, 2);
    assert.equal(await readFile(configFile, 'utf8'), before);
  });
});
