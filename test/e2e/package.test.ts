import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

// What users run: the packed tarball and a clone, through npx, in a fresh npm cache.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const version = JSON.parse(
  execFileSync('npm', ['pkg', 'get', 'version'], { cwd: root, encoding: 'utf8' }),
) as string;

describe('the npm package', () => {
  let work: string;
  let tarball: string;
  const env = () => ({
    ...process.env,
    npm_config_cache: join(work, 'cache'),
    npm_config_update_notifier: 'false',
  });

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'graphql-mcp-package-'));
    // --ignore-scripts: pack the dist/ that the tests run, without rebuilding it under them.
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {
      cwd: root,
      env: env(),
      stdio: 'pipe',
    });
    tarball = join(
      work,
      readdirSync(work).find((name) => name.endsWith('.tgz'))!,
    );
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test("the tarball holds the bundled bin, the server's modules (its entry and the chunks esbuild splits off), its parts loaded on demand (the Redis store, telemetry, the MCP Apps view), the config file's JSON Schema, the licences and nothing else", () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    // The chunks' names carry a hash of their content: named by what they hold, checked by their shape.
    const chunk = /^package\/dist\/[a-z-]+-[A-Z0-9]{8}\.mjs$/;
    const chunks = listing.filter((name) => chunk.test(name));
    assert.ok(
      chunks.some((name) => name.includes('/query-run-')),
      'the call path is a chunk of its own',
    );
    assert.deepEqual(
      listing.filter((name) => !chunk.test(name)),
      [
        'package/LICENSE',
        'package/README.md',
        'package/config.schema.json',
        'package/dist/THIRD_PARTY_NOTICES.md',
        'package/dist/cli.cjs',
        'package/dist/server.mjs',
        'package/dist/store-redis.cjs',
        'package/dist/telemetry.cjs',
        'package/dist/views/query.html',
        'package/package.json',
      ],
    );
  });

  test('npx -y file:<tarball> starts the server, with no dependency to install', () => {
    const output = execFileSync('npx', ['-y', `file:${tarball}`, '--version'], {
      cwd: work,
      env: env(),
      encoding: 'utf8',
    });
    assert.equal(output.trim(), version);
  });

  test('npx -y <path to a clone> starts the server', () => {
    const output = execFileSync('npx', ['-y', root, '--version'], {
      cwd: work,
      env: env(),
      encoding: 'utf8',
    });
    assert.equal(output.trim(), version);
  });
});
