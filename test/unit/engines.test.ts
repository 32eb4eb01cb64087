// The Node versions the README names for development are those every installed package takes: `npm ci` warns
// (EBADENGINE) for each package whose `engines.node` leaves one of them out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import semver from 'semver';

const root = join(import.meta.dirname, '../..');

/** The lowest version of each Node line the README names: `Node 20.19 or newer, 22.13 or newer, or 24`. */
function namedVersions(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const phrase = /on a fresh clone \(Node (\d+\.\d+) or newer, (\d+\.\d+) or newer, or (\d+)\b/.exec(readme);
  assert.ok(phrase !== null, 'the README names the Node versions of a fresh clone');
  return phrase.slice(1).map((version) => semver.coerce(version)!.version);
}

describe('the Node versions the README names', () => {
  test('are 20.19, 22.13 and 24', () => {
    assert.deepEqual(namedVersions(), ['20.19.0', '22.13.0', '24.0.0']);
  });

  test('MUST be taken by every package of package-lock.json, so that npm ci prints no EBADENGINE warning', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refused: string[] = [];
    for (const version of namedVersions()) {
      for (const [path, entry] of Object.entries(lock.packages)) {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        if (range !== undefined && !semver.satisfies(version, range)) {
          refused.push(`${path || 'the package'}@${entry.version ?? ''} wants Node ${range}, not ${version}`);
        }
      }
    }
    assert.deepEqual(refused, []);
  });
});
