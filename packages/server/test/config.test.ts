/** Configuration validation: every mistake names the file and the field. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfigFile, validateConfig } from '../src/platform/config/load.js';
import { ConfigRegistry } from '../src/platform/config/registry.js';
import { FIXTURES, testConfig } from './support/test-server.js';
import { answeredWith } from './support/domain-refusal.js';

function problemsOf(raw: unknown): string[] {
  try {
    validateConfig(raw, '/etc/discovery.json', FIXTURES);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /\/etc\/discovery\.json/);
    return error.problems;
  }
  assert.fail('the configuration was accepted');
}

describe('configuration', () => {
  it('accepts the test configuration and fills defaults', () => {
    const config = validateConfig(testConfig(), '(test)', FIXTURES);
    assert.equal(config.mounts.items, '/catalog');
    assert.equal(config.tenants[0]!.serviceAccounts[0]!.assertionMaxLifetimeSeconds, 60);
    assert.ok(config.publicKeys.get('client-a')?.includes('BEGIN PUBLIC KEY'));
  });

  it('names a mistyped field', () => {
    const raw = testConfig() as { tenants: Array<Record<string, unknown>> };
    (raw.tenants[0]!.environments as Array<Record<string, unknown>>)[0]!.widgtes = [];
    const problems = problemsOf(raw);
    assert.ok(problems.some((p) => p.startsWith('tenants[0].environments[0]') && p.includes('widgtes')), problems.join('\n'));
  });

  it('names an unknown strategy with the allowed ones', () => {
    const raw = testConfig() as { tenants: Array<Record<string, any>> };
    raw.tenants[0]!.environments[0].widgets[0].strategies = ['populr'];
    const problems = problemsOf(raw);
    assert.ok(problems.some((p) => p.startsWith('tenants[0].environments[0].widgets[0].strategies[0]') && p.includes('popular')), problems.join('\n'));
  });

  it('names a widget filter whose where does not parse, instead of answering 500 on every request', () => {
    const raw = testConfig() as { tenants: Array<Record<string, any>> };
    raw.tenants[0]!.environments[0].widgets[0].filters = [{ where: 'price < 5000' }, { where: 'price < 5000 AND brand ~ acme' }];
    const problems = problemsOf(raw);
    assert.deepEqual(
      problems.filter((p) => p.includes('filters')),
      ["tenants[0].environments[0].widgets[0].filters[1].where: Filter syntax error at position 23: expected an attribute, a value, an operator or a parenthesis, found '~'."],
    );
  });

  it('reads widget filters in the search filter language, $variables only where a value stands', () => {
    const raw = testConfig() as { tenants: Array<Record<string, any>> };
    raw.tenants[0]!.environments[0].widgets[0].filters = [
      { where: "(brand = 'Acme' OR brand IN ('Zed', $brand)) AND NOT price > $maxPrice" },
      { where: 'in_stock = true AND categories != $category' },
      { where: '$maxPrice >= price' },
      { where: "brand = 'Acme' OR" },
      { where: 'price < $' },
    ];
    assert.deepEqual(
      problemsOf(raw).filter((p) => p.includes('filters')),
      [
        "tenants[0].environments[0].widgets[0].filters[2].where: Filter syntax error at position 0: expected an attribute name, NOT or '(', found the variable $maxPrice.",
        "tenants[0].environments[0].widgets[0].filters[3].where: Filter syntax error at position 17: expected an attribute name, NOT or '(', found the end of the filter.",
        "tenants[0].environments[0].widgets[0].filters[4].where: Filter syntax error at position 9: expected a variable name after '$', found the end of the filter.",
      ],
    );
  });

  it('names the file and the field of a widget filter that does not parse when the file loads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'config-where-'));
    const file = join(dir, 'shop.json');
    const raw = testConfig() as { tenants: Array<Record<string, any>> };
    for (const tenant of raw.tenants) {
      for (const account of tenant.serviceAccounts ?? []) if (account.publicKeyFile !== undefined) account.publicKeyFile = join(FIXTURES, account.publicKeyFile);
    }
    raw.tenants[0]!.environments[0].widgets[0].filters = [{ where: 'price <= $maxPrice AND' }];
    await writeFile(file, JSON.stringify(raw));
    assert.throws(
      () => loadConfigFile(file),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.file === file &&
        error.message.includes(file) &&
        error.problems.includes("tenants[0].environments[0].widgets[0].filters[0].where: Filter syntax error at position 22: expected an attribute name, NOT or '(', found the end of the filter."),
    );
  });

  it('refuses ids used twice where URLs need them unique', () => {
    const raw = testConfig() as { tenants: Array<Record<string, any>> };
    raw.tenants[1]!.environments[0].trackerKeys = ['tenant-a-tracker'];
    const problems = problemsOf(raw);
    assert.ok(problems.some((p) => p.includes('tracker key "tenant-a-tracker" is already used at tenants[0].environments[0].trackerKeys[0]')), problems.join('\n'));
  });

  it('names a missing key file and an account with two authentication methods', () => {
    const raw = testConfig() as { tenants: Array<Record<string, any>> };
    raw.tenants[0]!.serviceAccounts[0].publicKeyFile = 'missing.pem';
    const missing = problemsOf(raw);
    assert.ok(missing.some((p) => p.startsWith('tenants[0].serviceAccounts[0].publicKeyFile: cannot read')), missing.join('\n'));
    const twoMethods = testConfig() as { tenants: Array<Record<string, any>> };
    twoMethods.tenants[1]!.serviceAccounts[0].clientSecretHash = `sha256:${'0'.repeat(64)}`;
    const problems = problemsOf(twoMethods);
    assert.ok(problems.some((p) => p.startsWith('tenants[1].serviceAccounts[0]') && p.includes('exactly one')), problems.join('\n'));
  });

  it('reports a file that is not JSON with the file name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'discovery-config-'));
    const file = join(dir, 'broken.json');
    await writeFile(file, '{ "tenants": [ }');
    assert.throws(() => loadConfigFile(file), (error: unknown) => error instanceof ConfigError && error.message.includes(file) && /not valid JSON/.test(error.message));
  });

  it('resolves public identifiers to their tenant and environment, with 404s naming the bad one', () => {
    const registry = new ConfigRegistry(validateConfig(testConfig(), '(test)', FIXTURES));
    assert.equal(registry.trackerKey('tenant-b-tracker').tenant.id, 'tenant-b');
    assert.equal(registry.widget('tenant-a-popular').environment.id, 'prod');
    assert.throws(() => registry.searchToken('nope'), answeredWith({ status: 404, code: 'unknown_search_token' }));
    assert.throws(() => registry.environment('tenant-a', 'nope'), answeredWith({ status: 404, code: 'unknown_environment', field: 'environment' }));
    assert.throws(() => registry.environment('nope', 'prod'), answeredWith({ status: 404, code: 'unknown_tenant', field: 'tenant' }));
    assert.throws(() => registry.environment(undefined, 'prod'), answeredWith({ status: 400, field: 'tenant' }));
  });
});
