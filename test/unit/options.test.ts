import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.ts';
import { COMMANDS, declaration, OPTION_NAMES, usage, type OptionName } from '../../src/config/options.ts';
import { ConfigError } from '../../src/config/parsers.ts';
import { optionsDocs } from '../../scripts/options-docs.ts';

const SECRET = 'sk-live SECRET-8f3a9c1e';

/** The message of the ConfigError that `run` throws. */
function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected a ConfigError');
}

describe('the option declarations', () => {
  test("the docs' options tables are the declaration's (when this fails: npm run docs:options)", () => {
    for (const { path, text, updated } of optionsDocs()) {
      assert.equal(updated, text, `${path} and src/config/options.ts disagree: run npm run docs:options`);
    }
  });

  test('every default is a value its own parser accepts', () => {
    for (const name of OPTION_NAMES) {
      const { default: fallback, parse } = declaration(name);
      if (fallback !== undefined) {
        assert.doesNotThrow(() => parse({ value: fallback, source: `--${name}`, argument: false }), name);
      }
    }
  });

  test('no two options share a short form or an environment variable', () => {
    const shorts = [
      ...OPTION_NAMES.map((name) => declaration(name).short),
      ...Object.values(COMMANDS).map((command) => command.short),
    ].filter((short) => short !== undefined);
    const envs = OPTION_NAMES.map((name) => declaration(name).env);
    assert.equal(new Set(shorts).size, shorts.length);
    assert.equal(new Set(envs).size, envs.length);
  });

  test('--help names every option with its short form and its environment variable', () => {
    const text = usage();
    for (const name of OPTION_NAMES) {
      const { short, env } = declaration(name);
      assert.ok(text.includes(short === undefined ? `    --${name}` : `-${short}, --${name}`), name);
      assert.ok(text.includes(`[${env}]`), env);
    }
  });

  const secrets = OPTION_NAMES.filter((name) => declaration(name).secret);
  for (const name of secrets) {
    test(`MUST NOT quote any part of a bad --${name} value, a secret, in its error`, () => {
      const bad = [
        SECRET,
        SECRET.slice(0, 12),
        `{"Authorization":"${SECRET}"`,
        `["${SECRET}"]`,
        JSON.stringify({ [SECRET]: 'x' }),
      ];
      let refused = 0;
      for (const value of bad) {
        let message: string;
        try {
          declaration(name).parse({ value, source: `--${name}`, argument: true });
          continue;
        } catch (error) {
          message = (error as Error).message;
        }
        refused++;
        for (let start = 0; start + 8 <= SECRET.length; start++) {
          const part = SECRET.slice(start, start + 8);
          assert.ok(!message.includes(part), `the message holds ${JSON.stringify(part)}: ${message}`);
        }
      }
      assert.ok(refused > 0, 'none of the bad values was refused');
    });
  }
});

describe('remote-only options in stdio mode', () => {
  // Values each option's parser accepts, for those without a default.
  const samples: Partial<Record<OptionName, string>> = {
    httpToken: 't'.repeat(20),
    forwardHeaders: 'X-User',
    oauthIssuer: 'https://auth.example.com',
    oauthAudience: 'https://mcp.example.com/mcp',
    oauthScopes: 'mcp:use',
    oauthJwksUri: 'https://auth.example.com/jwks',
    oauthToolScopes: 'graphql_query=api:write',
    stateKey: 'k'.repeat(40),
    store: 'redis://127.0.0.1:6379/0',
  };
  // Remote mode's options do nothing on stdio, --transport aside, which chooses between the two.
  const remote = OPTION_NAMES.filter((name) => declaration(name).remoteOnly === true);
  for (const name of remote) {
    test(`--${name} as an argument is refused without --transport=http`, () => {
      const value = declaration(name).default ?? samples[name];
      assert.ok(value !== undefined, `give a sample value for --${name} above`);
      // The OAuth options need an issuer and an audience: from the environment, which stdio mode leaves alone.
      const env =
        declaration(name).group === 'oauth'
          ? {
              GRAPHQL_MCP_OAUTH_ISSUER: samples.oauthIssuer,
              GRAPHQL_MCP_OAUTH_AUDIENCE: samples.oauthAudience,
            }
          : {};
      assert.equal(
        messageOf(() => loadConfig([`--${name}=${value}`], env)),
        `--${name} applies only with --transport=http`,
      );
    });
  }
});

describe('the forms parseArgs reads that the command line does not take', () => {
  test('-t=5000 sets the timeout, as --timeout=5000 does', () => {
    const command = loadConfig(['-t=5000'], {});
    assert.equal(command.kind === 'serve' && command.apis[0]!.timeout, 5000);
  });

  test('a short option with its value attached is an unknown option, located and not quoted', () => {
    assert.equal(
      messageOf(() => loadConfig(['--readOnly', '-ehttps://api.example.com/graphql'], {})),
      'unknown option at position 2 (not shown: it does not look like an option name); see --help',
    );
  });

  test('short options run together are an unknown option', () => {
    assert.equal(
      messageOf(() => loadConfig(['-hm'], {})),
      'unknown option -hm; see --help',
    );
  });

  test('arguments after "-h=…" are still read, each at its own position', () => {
    assert.equal(
      messageOf(() => loadConfig(['-h=1', '--bogus'], {})),
      'unknown option --bogus; see --help',
    );
    assert.match(
      messageOf(() => loadConfig(['-v=1', '--timeout=5', 'stray'], {})),
      /^unexpected argument at position 3: /,
    );
  });
});
