/** Reads and validates the configuration file; every error names the file and the field. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { configSchema, type DiscoveryConfig } from './schema.js';
import { formatPath } from '../validation.js';
import { FilterSyntaxError } from '../filter-language/filter-syntax-error.js';
import { parseFilterTemplate } from '../filter-language/parse-filter.js';

export class ConfigError extends Error {
  readonly file: string;
  readonly problems: string[];
  constructor(file: string, problems: string[]) {
    super(`Invalid configuration in ${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.file = file;
    this.problems = problems;
  }
}

/** A validated configuration, with every service account's public key read in. */
export interface LoadedConfig extends DiscoveryConfig {
  /** Absolute path of the file it came from, or `(inline)`. */
  source: string;
  /** PEM text of each key-based service account, by client id. */
  publicKeys: Map<string, string>;
}

export function loadConfigFile(file: string): LoadedConfig {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(path, [`cannot read the file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(path, [`not valid JSON: ${(error as Error).message}`]);
  }
  return validateConfig(raw, path, dirname(path));
}

/** Validates a configuration object; `baseDir` resolves `publicKeyFile` paths. */
export function validateConfig(raw: unknown, source = '(inline)', baseDir = process.cwd()): LoadedConfig {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(source, parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`));
  }
  const config = parsed.data;
  const problems = crossCheck(config);
  const publicKeys = new Map<string, string>();
  config.tenants.forEach((tenant, t) =>
    tenant.serviceAccounts.forEach((account, a) => {
      const where = `tenants[${t}].serviceAccounts[${a}]`;
      let pem = account.publicKey;
      if (account.publicKeyFile !== undefined) {
        try {
          pem = readFileSync(resolve(baseDir, account.publicKeyFile), 'utf8');
        } catch (error) {
          problems.push(`${where}.publicKeyFile: cannot read ${resolve(baseDir, account.publicKeyFile)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
          return;
        }
      }
      if (pem === undefined) return;
      if (!/-----BEGIN (PUBLIC KEY|CERTIFICATE)-----/.test(pem)) {
        problems.push(`${where}.${account.publicKeyFile !== undefined ? 'publicKeyFile' : 'publicKey'}: expected a PEM public key (BEGIN PUBLIC KEY) or certificate (BEGIN CERTIFICATE)`);
        return;
      }
      publicKeys.set(account.clientId, pem);
    }),
  );
  if (problems.length > 0) throw new ConfigError(source, problems);
  return { ...config, source, publicKeys };
}

/** Rules that span several objects: ids that URLs use without a tenant must be unique across the file. */
export function crossCheck(config: DiscoveryConfig): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const claim = (kind: string, value: string, where: string) => {
    const key = `${kind}\u0000${value}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) problems.push(`${where}: ${kind} "${value}" is already used at ${earlier}`);
    else seen.set(key, where);
  };
  config.tenants.forEach((tenant, t) => {
    claim('tenant id', tenant.id, `tenants[${t}].id`);
    tenant.serviceAccounts.forEach((account, a) => claim('client id', account.clientId, `tenants[${t}].serviceAccounts[${a}].clientId`));
    tenant.environments.forEach((env, e) => {
      const at = `tenants[${t}].environments[${e}]`;
      claim(`environment id of tenant ${tenant.id}`, env.id, `${at}.id`);
      env.trackerKeys.forEach((key, k) => claim('tracker key', key, `${at}.trackerKeys[${k}]`));
      env.searchTokens.forEach((token, s) => {
        claim('search token', token.token, `${at}.searchTokens[${s}].token`);
        token.configurations.forEach((c, i) => claim(`configuration id of token ${token.token}`, c.id, `${at}.searchTokens[${s}].configurations[${i}].id`));
      });
      env.widgets.forEach((widget, w) => {
        claim('widget id', widget.id, `${at}.widgets[${w}].id`);
        widget.filters.forEach((filter, f) => {
          const problem = 'where' in filter ? whereProblem(filter.where) : undefined;
          if (problem !== undefined) problems.push(`${at}.widgets[${w}].filters[${f}].where: ${problem}`);
        });
        if (widget.minResults > widget.maxResults) {
          problems.push(`${at}.widgets[${w}].minResults: ${widget.minResults} is more than maxResults (${widget.maxResults})`);
        }
      });
    });
  });
  return problems;
}

/** Why a widget's `where` does not parse in the filter language (with its `$variables`), or undefined when it does. */
function whereProblem(expression: string): string | undefined {
  try {
    parseFilterTemplate(expression);
    return undefined;
  } catch (error) {
    if (error instanceof FilterSyntaxError) return error.message;
    throw error;
  }
}
