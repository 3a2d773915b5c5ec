/** Entry point of `npm run account -- create --tenant <id> ...`: registers a service account and says how to use it. */
import { ConfigError } from '@discovery-kit/server';
import { DEMO_CONFIG } from './options.js';
import { AccountError, createServiceAccount } from './service-account.js';
import { readArgs } from './cli-args.js';

const USAGE = `Usage: npm run account -- create --tenant <id> [options]

  --tenant <id>          tenant that owns the account (required)
  --realm <realm>        tenant (catalog API, default) or master (older item and item-context APIs)
  --client-id <id>       client id (default: generated from the tenant id)
  --public-key <file>    register this PEM public key or certificate instead of generating a pair
  --out <dir>            where a generated private key is written (default: the current directory)
  --description <text>   note stored with the account
  --config <file>        configuration file to change (env CONFIG; default: the demo configuration)

Restart the server afterwards: it reads service accounts at start.`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = readArgs(
    USAGE,
    {
      tenant: { type: 'string' },
      realm: { type: 'string', default: 'tenant' },
      'client-id': { type: 'string' },
      'public-key': { type: 'string' },
      out: { type: 'string', default: '.' },
      description: { type: 'string' },
      config: { type: 'string' },
    },
    argv,
  );
  if (positionals[0] !== 'create' || positionals.length !== 1) throw new AccountError(`Expected the command "create".\n\n${USAGE}`);
  if (values.tenant === undefined) throw new AccountError(`--tenant is required.\n\n${USAGE}`);
  if (values.realm !== 'tenant' && values.realm !== 'master') throw new AccountError(`--realm must be "tenant" or "master", not "${values.realm}".`);
  const created = await createServiceAccount({
    configFile: values.config ?? process.env.CONFIG ?? DEMO_CONFIG,
    tenantId: values.tenant,
    realm: values.realm,
    clientId: values['client-id'],
    publicKeyFile: values['public-key'],
    outDir: values.out,
    description: values.description,
  });
  const realmName = created.realm === 'master' ? 'master' : created.tenantId;
  console.log(`client id:   ${created.clientId}
tenant id:   ${created.tenantId}
realm:       ${realmName}
public key:  ${created.publicKeyFile}
${created.privateKeyFile === undefined ? 'private key: yours (not generated here)' : `private key: ${created.privateKeyFile} (mode 600; keep it secret, it is not stored anywhere else)`}
config:      ${created.configFile} (restart the server to load the account)
token URL:   {auth_url}/auth/realms/${realmName}/protocol/openid-connect/token`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof AccountError || error instanceof ConfigError) {
      console.error((error as Error).message);
      process.exit(2);
    }
    console.error(error);
    process.exit(1);
  },
);
