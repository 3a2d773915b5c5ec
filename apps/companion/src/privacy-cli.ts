/**
 * `npm run privacy -- export|erase --tenant <id> (--profile <id> | --session <id> | --customer <repository>:<id> | --datasource <name>:<id>)`:
 * a data-subject request against a running server, through its admin API with a service account of
 * the tenant that has the "edit" admin role (docs/privacy.md). `export` writes the JSON to stdout or
 * `--out <file>`; `erase` asks for `--yes`, then prints how many profiles and activities were erased.
 */
import { writeFile } from 'node:fs/promises';
import { CONNECTION_OPTIONS, connect, unreachableMessage } from './server-connection.js';
import { fail, readArgs } from './cli-args.js';

const USAGE = `Usage: npm run privacy -- <export|erase> --tenant <id> <person> [options]

  <person>, one of:
  --profile <id>              a profile id (as the tracker returns it)
  --session <id>              a browser's session id (a visitor who never logged in)
  --customer <repo>:<id>      an identity of the collection API, e.g. customer-id:C-1042
  --datasource <name>:<id>    a datasource id of the older tracker, e.g. crm:42
  options:
  --out <file>                export: write the JSON here instead of stdout
  --yes                       erase: confirm (nothing is erased without it)
  --url <server>              the running server (env DISCOVERY_URL; default http://localhost:8787)
  --client-id <id>            service account of the tenant with adminRole "edit" (default demo-backoffice, with the demo key)
  --key <pem>                 its private key`;

/** The admin API's query naming the person. */
function personQuery(values: { profile?: string; session?: string; customer?: string; datasource?: string }): URLSearchParams {
  const given = [values.profile, values.session, values.customer, values.datasource].filter((v) => v !== undefined);
  if (given.length !== 1) fail(`Name the person once: --profile, --session, --customer or --datasource.\n\n${USAGE}`);
  if (values.profile !== undefined) return new URLSearchParams({ profileId: values.profile });
  if (values.session !== undefined) return new URLSearchParams({ sessionId: values.session });
  const [kind, text] = values.customer !== undefined ? (['repository', values.customer] as const) : (['datasource', values.datasource!] as const);
  const cut = text.indexOf(':');
  if (cut <= 0 || cut === text.length - 1) fail(`--${kind === 'repository' ? 'customer' : 'datasource'} "${text}": expected <name>:<id>`);
  return new URLSearchParams({ [kind]: text.slice(0, cut), userId: text.slice(cut + 1) });
}

async function main(): Promise<void> {
  const { values, positionals } = readArgs(USAGE, {
    tenant: { type: 'string' },
    profile: { type: 'string' },
    session: { type: 'string' },
    customer: { type: 'string' },
    datasource: { type: 'string' },
    out: { type: 'string' },
    yes: { type: 'boolean' },
    ...CONNECTION_OPTIONS,
  });
  const command = positionals[0];
  if ((command !== 'export' && command !== 'erase') || positionals.length !== 1) fail(USAGE);
  if (values.tenant === undefined) fail(`--tenant is required.\n\n${USAGE}`);
  const query = personQuery(values);
  if (command === 'erase' && values.yes !== true) fail('Erasure cannot be undone: add --yes to erase this person.');
  const { server, tokens } = await connect(values, values.tenant);
  query.set('tenant', values.tenant);
  const path = command === 'export' ? `/admin/profiles/export?${query}` : `/admin/profiles?${query}`;
  const response = await fetch(`${server}${path}`, { method: command === 'export' ? 'GET' : 'DELETE', headers: { authorization: await tokens.authorization() } });
  const body = (await response.json().catch(() => undefined)) as { error?: { message?: string }; erased?: { profiles: number; activities: number } } | undefined;
  if (!response.ok) fail(`${response.status}: ${body?.error?.message ?? response.statusText}`, 1);
  if (command === 'erase') {
    console.error(`erased ${body!.erased!.profiles} profile(s) and ${body!.erased!.activities} activities`);
    return;
  }
  const text = `${JSON.stringify(body, null, 2)}\n`;
  if (values.out === undefined) process.stdout.write(text);
  else {
    await writeFile(values.out, text, { mode: 0o600 });
    console.error(`written to ${values.out}`);
  }
}

main().catch((error: unknown) => {
  fail(unreachableMessage(error) ?? `privacy request failed: ${(error as Error).message}`, 1);
});
