// server.json, what the official MCP Registry publishes of this package: valid against the registry's own
// JSON Schema of 2025-12-11 (kept in test/fixtures, byte for byte the file at the schema's $id), and saying
// what package.json and the option table say: the name npm checks (mcpName), the version, each option's
// environment variable with its default, its choices and whether it is a secret.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { OPTIONS, type OptionDeclaration } from '../../src/config/options.ts';

const root = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** The SHA-256 of the file served at SCHEMA_URL (modelcontextprotocol/static, schemas/2025-12-11). */
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';
const SCHEMA_FILE = 'test/fixtures/registry-server.schema.json';

interface EnvironmentVariable {
  name: string;
  description?: string;
  format?: string;
  default?: string;
  choices?: string[];
  isSecret?: boolean;
  isRequired?: boolean;
}

interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  packages: Array<{
    registryType: string;
    identifier: string;
    version: string;
    transport: { type: string };
    environmentVariables: EnvironmentVariable[];
  }>;
}

const server = JSON.parse(read('server.json')) as ServerJson;
const pkg = JSON.parse(read('package.json')) as { name: string; version: string; mcpName: string };

// ajv-formats is CommonJS: under ESM its plugin is the module's `default` member.
const addFormats = addFormatsModule.default;

describe('server.json', () => {
  test("is valid against the MCP Registry's JSON Schema of 2025-12-11, kept as the registry publishes it", () => {
    const bytes = readFileSync(join(root, SCHEMA_FILE));
    assert.equal(createHash('sha256').update(bytes).digest('hex'), SCHEMA_SHA256);
    const schema = JSON.parse(bytes.toString('utf8')) as { $id: string };
    assert.equal(schema.$id, SCHEMA_URL);
    assert.equal(server.$schema, SCHEMA_URL);
    // The schema's own annotations (example, discriminator) are no keywords of JSON Schema.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    assert.ok(validate(server), JSON.stringify(validate.errors, null, 2));
  });

  test('refuses what the registry refuses: the check can fail', () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(read(SCHEMA_FILE)));
    assert.equal(validate({ ...server, description: 'x'.repeat(101) }), false);
    assert.equal(validate({ ...server, name: 'graphql-mcp' }), false);
  });

  test("names package.json's mcpName, in the io.github namespace, and its version, for the server and its npm package", () => {
    assert.equal(server.name, pkg.mcpName);
    assert.match(server.name, /^io\.github\.[A-Za-z0-9-]+\/graphql-mcp$/);
    assert.equal(server.version, pkg.version);
    assert.deepEqual(
      server.packages.map(({ registryType, identifier, version, transport }) => ({
        registryType,
        identifier,
        version,
        transport,
      })),
      [{ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } }],
    );
  });

  test('gives every general option as its environment variable, with its default and choices, credentials secret', () => {
    const options = Object.values(OPTIONS) as OptionDeclaration[];
    const general = options.filter((option) => option.group === 'general').map((option) => option.env);
    const variables = server.packages[0]!.environmentVariables;
    assert.deepEqual(variables.map((variable) => variable.name).sort(), [...general].sort());
    for (const variable of variables) {
      const option = options.find((candidate) => candidate.env === variable.name)!;
      assert.equal(variable.default, option.default, variable.name);
      assert.equal(variable.isSecret === true, option.secret === true, `${variable.name}: isSecret`);
      const choices = (option.json as { enum?: string[] }).enum;
      assert.deepEqual(variable.choices, choices, `${variable.name}: choices`);
      const type = (option.json as { type?: string }).type;
      const format = type === 'boolean' ? 'boolean' : type === 'integer' ? 'number' : undefined;
      if (format !== undefined) assert.equal(variable.format, format, `${variable.name}: format`);
    }
    assert.equal(variables.find((variable) => variable.name === 'GRAPHQL_HEADERS')?.isSecret, true);
  });
});
