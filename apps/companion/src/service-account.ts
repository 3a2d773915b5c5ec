/**
 * Registers a service account in a configuration file: generates an RSA 2048 key pair (or takes a
 * public key or certificate), stores the public half beside the configuration, and adds the
 * account to its tenant, validating the whole file before anything is written over it.
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { validateConfig } from '@discovery-kit/server';

export interface CreateAccountOptions {
  configFile: string;
  tenantId: string;
  realm: 'tenant' | 'master';
  clientId?: string;
  /** PEM public key or certificate to register instead of generating a pair. */
  publicKeyFile?: string;
  /** Where a generated private key is written. */
  outDir: string;
  description?: string;
}

export interface CreatedAccount {
  clientId: string;
  tenantId: string;
  realm: 'tenant' | 'master';
  configFile: string;
  publicKeyFile: string;
  /** Only for a generated pair. */
  privateKeyFile?: string;
}

export class AccountError extends Error {}

interface RawConfig {
  tenants?: Array<{ id?: unknown; serviceAccounts?: Array<{ clientId?: unknown }> }>;
}

export async function createServiceAccount(options: CreateAccountOptions): Promise<CreatedAccount> {
  const configFile = resolve(options.configFile);
  const configDir = dirname(configFile);
  const original = readFileSync(configFile, 'utf8');
  // The raw JSON is edited, not the validated object, so that the file keeps its own defaults and order.
  const raw = JSON.parse(original) as RawConfig;
  validateConfig(raw, configFile, configDir);
  const tenant = raw.tenants?.find((t) => t.id === options.tenantId);
  if (tenant === undefined) {
    throw new AccountError(`No tenant "${options.tenantId}" in ${configFile}; tenants: ${(raw.tenants ?? []).map((t) => String(t.id)).join(', ')}.`);
  }
  const taken = new Set((raw.tenants ?? []).flatMap((t) => (t.serviceAccounts ?? []).map((a) => a.clientId)));
  const clientId = options.clientId ?? `${options.tenantId}-${options.realm === 'master' ? 'legacy-' : ''}${randomBytes(4).toString('hex')}`;
  if (taken.has(clientId)) throw new AccountError(`The client id "${clientId}" is already registered in ${configFile}; choose another with --client-id.`);

  let publicPem: string;
  let privatePem: string | undefined;
  if (options.publicKeyFile !== undefined) {
    publicPem = readFileSync(options.publicKeyFile, 'utf8');
    checkPublicKey(publicPem, options.publicKeyFile);
  } else {
    const pair = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    publicPem = await exportSPKI(pair.publicKey);
    privatePem = await exportPKCS8(pair.privateKey);
  }

  const keysDir = join(configDir, 'keys');
  const publicKeyFile = join(keysDir, `${clientId}.${publicPem.includes('CERTIFICATE') ? 'cert' : 'public'}.pem`);
  const privateKeyFile = privatePem === undefined ? undefined : resolve(options.outDir, `${clientId}.private.pem`);
  const written: string[] = [];
  try {
    mkdirSync(keysDir, { recursive: true });
    writeFileSync(publicKeyFile, publicPem, { flag: 'wx' });
    written.push(publicKeyFile);
    tenant.serviceAccounts ??= [];
    tenant.serviceAccounts.push({
      clientId,
      realm: options.realm,
      ...(options.description !== undefined ? { description: options.description } : {}),
      publicKeyFile: relative(configDir, publicKeyFile),
    } as { clientId: string });
    validateConfig(raw, configFile, configDir);
    if (privateKeyFile !== undefined) {
      mkdirSync(dirname(privateKeyFile), { recursive: true });
      // Created with 0600 from the start: the key is never readable by others, not even for a moment.
      writeFileSync(privateKeyFile, privatePem!, { flag: 'wx', mode: 0o600 });
      written.push(privateKeyFile);
    }
    const temporary = `${configFile}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(raw, null, 2)}\n`);
    renameSync(temporary, configFile);
  } catch (error) {
    for (const file of written) rmSync(file, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new AccountError(`Refusing to overwrite an existing key file: ${(error as NodeJS.ErrnoException).path}.`);
    throw error;
  }
  return { clientId, tenantId: options.tenantId, realm: options.realm, configFile, publicKeyFile, privateKeyFile };
}

function checkPublicKey(pem: string, file: string): void {
  if (!/-----BEGIN (PUBLIC KEY|CERTIFICATE)-----/.test(pem)) throw new AccountError(`${file} is not a PEM public key (BEGIN PUBLIC KEY) or certificate (BEGIN CERTIFICATE).`);
  let details;
  try {
    const key = createPublicKey(pem);
    details = { type: key.asymmetricKeyType, bits: key.asymmetricKeyDetails?.modulusLength ?? 0 };
  } catch (error) {
    throw new AccountError(`${file} cannot be read as a public key: ${(error as Error).message}.`);
  }
  if (details.type !== 'rsa' || details.bits < 2048) {
    throw new AccountError(`${file} holds a ${details.type ?? 'unknown'} key of ${details.bits} bits; assertions are RS256, so register an RSA key of at least 2048 bits.`);
  }
}
