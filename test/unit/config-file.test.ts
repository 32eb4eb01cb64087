import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { configSchema, SCHEMA_FILE } from '../../scripts/config-schema.ts';
import { loadConfig } from '../../src/config/load.ts';
import { ConfigError } from '../../src/config/parsers.ts';
import { secretsOf } from '../../src/redaction/redactor.ts';

const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-config-file-'));
const root = join(import.meta.dirname, '../..');
let files = 0;

/** Writes a config file and parses a command line naming it. */
function serve(content: unknown, env: NodeJS.ProcessEnv = {}, argv: string[] = []) {
  const path = join(dir, `config-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  const command = loadConfig([`--config=${path}`, ...argv], env);
  assert.equal(command.kind, 'serve');
  return command;
}

function refusal(content: unknown, env: NodeJS.ProcessEnv = {}, argv: string[] = []): string {
  try {
    serve(content, env, argv);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.doesNotMatch(error.message, /[\r\n]/);
    return error.message;
  }
  assert.fail('expected a ConfigError');
}

describe('a config file', () => {
  test("gives each API its own options, over the top level's defaults, over the options' defaults", () => {
    const { apis } = serve({
      timeout: 1000,
      apis: {
        a: { endpoint: 'https://a.example.com/graphql', timeout: 500, mutations: 'allow' },
        b: { endpoint: 'https://b.example.com/graphql', readOnly: true },
      },
    });
    assert.deepEqual(
      apis.map((api) => [api.name, api.endpoint.href, api.timeout, api.mutations, api.maxComplexity]),
      [
        ['a', 'https://a.example.com/graphql', 500, 'allow', 100],
        ['b', 'https://b.example.com/graphql', 1000, 'deny', 100],
      ],
    );
  });

  test('fills in ${env:NAME} from the environment, in headers and anywhere else', () => {
    const { apis } = serve(
      {
        apis: {
          a: {
            endpoint: 'https://${env:HOST}/graphql',
            headers: { Authorization: 'Bearer ${env:TOKEN}', 'X-Count': 3 },
          },
        },
      },
      { HOST: 'api.example.com', TOKEN: 'tok-12345678' },
    );
    assert.equal(apis[0]!.endpoint.href, 'https://api.example.com/graphql');
    assert.deepEqual(apis[0]!.headers.entries(), [
      ['Authorization', 'Bearer tok-12345678'],
      ['X-Count', '3'],
    ]);
  });

  test("gives every API every API's headers as the secrets of its answers", () => {
    const { apis } = serve({
      apis: {
        a: { endpoint: 'https://a.example.com/', headers: { 'X-A': 'secret-a-123456' } },
        b: { endpoint: 'https://b.example.com/', headers: { 'X-B': 'secret-b-123456' } },
      },
    });
    assert.deepEqual(
      secretsOf(apis.map((config) => ({ config }))).headers.flatMap((headers) => headers.values()),
      ['secret-a-123456', 'secret-b-123456'],
    );
  });

  test('takes lists as arrays or comma-separated strings', () => {
    const { apis } = serve({
      apis: {
        a: {
          endpoint: 'https://a.example.com/',
          allowedEndpoints: ['https://x.example.com/', 'https://y.example.com/'],
        },
      },
    });
    assert.deepEqual(
      apis[0]!.allowedEndpoints?.map((url) => url.href),
      ['https://x.example.com/', 'https://y.example.com/'],
    );
  });

  test('MUST name a variable that is not set, and never a value', () => {
    const message = refusal({
      apis: { a: { endpoint: 'https://a.example.com/', headers: { Authorization: 'Bearer ${env:NOPE}' } } },
    });
    assert.match(
      message,
      /config-\d+\.json:\d+: apis\.a\.headers\.Authorization uses \$\{env:NOPE\}, which is not set/,
    );
  });

  test('MUST NOT quote the text around a JSON syntax error, only its line', () => {
    const message = refusal(
      '{\n  "apis": {\n    "a": { "headers": { "Authorization": "Bearer sk-Leaky-1234" } } ,,\n  }\n}',
    );
    assert.match(message, /not valid JSON at line 3/);
    assert.ok(!message.includes('Leaky'));
  });

  test('names the line of a key', () => {
    const message = refusal(
      '{\n  "apis": {\n    "a": {\n      "endpoint": "https://a.example.com/",\n      "timeout": "soon"\n    }\n  }\n}',
    );
    assert.match(message, /config-\d+\.json:5: apis\.a\.timeout must be a whole number/);
  });

  test('refuses a file without APIs, an API without an endpoint, and a name that cannot name tools', () => {
    assert.match(refusal({ timeout: 5 }), /names no API/);
    assert.match(refusal({ apis: { a: { timeout: 5 } } }), /apis\.a has no endpoint/);
    assert.match(
      refusal({ apis: { 'my api': { endpoint: 'https://a.example.com/' } } }),
      /an API's name is a letter/,
    );
  });

  test("warns of an API option's environment variable beside --config, which it ignores", () => {
    const { warnings, apis } = serve(
      { apis: { a: { endpoint: 'https://a.example.com/' } } },
      { GRAPHQL_TIMEOUT: '5' },
    );
    assert.equal(apis[0]!.timeout, 30_000);
    assert.match(warnings[0]!, /GRAPHQL_TIMEOUT is ignored: with --config, API options come from/);
  });
});

describe('a value nested thousands of levels deep', () => {
  test('MUST stop the start naming the file and the key, not overflow the stack', () => {
    const levels = 5_000;
    const deep = '{"type":"array","items":'.repeat(levels) + '{"type":"string"}' + '}'.repeat(levels);
    const message = refusal(
      `{"apis": {"a": {"endpoint": "https://a.example.com/graphql",\n"scalars": {"Deep": ${deep}}}}}`,
    );
    assert.match(
      message,
      /config-\d+\.json:2: apis\.a\.scalars\.Deep nests more than 64 levels of objects and arrays/,
    );
  });
});

describe('a value the file takes from the environment', () => {
  const SECRET = 'sk-live-0f1e2d3c4b5a6978';

  test('MUST NOT appear in a start-up error: a bad number is shown as written, ${env:NAME}', () => {
    const message = refusal(
      { apis: { a: { endpoint: 'https://a.example.com/', timeout: '${env:T}' } } },
      { T: SECRET },
    );
    assert.ok(!message.includes(SECRET), message);
    assert.match(message, /apis\.a\.timeout must be a whole number .*, got "\$\{env:T\}"/);
  });

  test('MUST NOT appear in a start-up error about a path it fills in', () => {
    const message = refusal(
      { apis: { a: { endpoint: 'https://a.example.com/', allowedEndpoints: ['ftp://${env:T}/x'] } } },
      { T: SECRET },
    );
    assert.ok(!message.includes(SECRET), message);
  });

  test("is a secret where it fills in part of an endpoint's path: the endpoint is named with it hidden", () => {
    const { apis } = serve(
      { apis: { a: { endpoint: 'https://hooks.example.com/graphql/${env:PATHKEY}' } } },
      { PATHKEY: SECRET },
    );
    assert.equal(apis[0]!.endpoint.href, `https://hooks.example.com/graphql/${SECRET}`);
    assert.equal(apis[0]!.endpointName, 'https://hooks.example.com/graphql/[redacted]');
    assert.deepEqual(apis[0]!.secretParts, [SECRET]);
  });
});

describe('config.schema.json', () => {
  test('is the schema the declaration makes (when this fails: npm run docs:options)', () => {
    assert.deepEqual(JSON.parse(readFileSync(join(root, SCHEMA_FILE), 'utf8')), configSchema());
  });

  test("every key of the docs' example files is one the schema knows, and the examples parse as configs", () => {
    const schema = configSchema() as {
      properties: Record<string, unknown> & {
        apis: { additionalProperties: { properties: Record<string, unknown> } };
      };
    };
    for (const doc of ['README.md', 'docs/config.md']) {
      const text = readFileSync(join(root, doc), 'utf8');
      const example = /```json\n(\{\n {2}"\$schema"[\s\S]*?)```/.exec(text);
      assert.ok(example, `${doc} has an example config file`);
      const config = JSON.parse(example[1]!) as Record<string, unknown> & {
        apis: Record<string, Record<string, unknown>>;
      };
      for (const key of Object.keys(config)) assert.ok(key in schema.properties, `${doc}: ${key}`);
      for (const api of Object.values(config.apis)) {
        for (const key of Object.keys(api)) {
          assert.ok(key in schema.properties.apis.additionalProperties.properties, `${doc}: ${key}`);
        }
      }
      const env = {
        GITHUB_TOKEN: 'x'.repeat(12),
        SHOP_KEY: 'y'.repeat(12),
        SHOPIFY_TOKEN: 'z'.repeat(12),
        GATEWAY_TOKEN: 'w'.repeat(12),
      };
      const apis = Object.fromEntries(
        Object.entries(config.apis).map(([name, options]) => {
          const { operations: _o, schema: _s, ...rest } = options;
          return [name, rest];
        }),
      );
      assert.ok(serve({ ...config, apis }, env).apis.length >= 2);
    }
  });
});
