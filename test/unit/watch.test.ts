// watchPaths on real directories and real watches (the editor patterns end to end are in
// test/e2e/reload.test.ts); a file system that refuses watches is the one thing stood in for.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { watchPaths, type WatchOptions } from '../../src/startup/watch.ts';

let work: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'graphql-mcp-watch-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

/** Watches `paths` until the test ends, counting the calls of onChange. */
function watching(t: { after: (fn: () => void) => void }, paths: string[], options?: WatchOptions) {
  let calls = 0;
  const stop = watchPaths(paths, () => void calls++, options);
  t.after(stop);
  return { calls: () => calls, stop };
}

/** Polls `done` until it holds, failing after a few seconds. */
async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Longer than a burst takes to settle: only for asserting that nothing was called. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 400));

describe('watchPaths', () => {
  test('calls once for a burst of changes', async (t) => {
    const dir = mkdtempSync(join(work, 'burst-'));
    writeFileSync(join(dir, 'a.graphql'), '');
    const watch = watching(t, [dir]);
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'a.graphql'), `${i}`);
    await until(() => watch.calls() === 1);
    await quiet();
    assert.equal(watch.calls(), 1);
  });

  test('a steady stream of changes does not put the call off for ever', async (t) => {
    const dir = mkdtempSync(join(work, 'stream-'));
    const watch = watching(t, [dir]);
    let i = 0;
    const writer = setInterval(() => writeFileSync(join(dir, 'build.log'), `${i++}`), 50);
    t.after(() => clearInterval(writer));
    await until(() => watch.calls() >= 1);
  });

  test('a file given alone: changes to the other files of its directory are not its changes', async (t) => {
    const dir = mkdtempSync(join(work, 'alone-'));
    writeFileSync(join(dir, 'a.graphql'), '');
    writeFileSync(join(dir, 'other.txt'), '');
    const watch = watching(t, [join(dir, 'a.graphql')]);
    writeFileSync(join(dir, 'other.txt'), 'changed');
    writeFileSync(join(dir, '.a.graphql.swp'), 'changed');
    await quiet();
    assert.equal(watch.calls(), 0);
    writeFileSync(join(dir, 'a.graphql'), 'changed');
    await until(() => watch.calls() === 1);
  });

  test('a path that does not exist yet, nor its directory, is followed once made', async (t) => {
    const dir = mkdtempSync(join(work, 'later-'));
    const file = join(dir, 'not/yet/a.graphql');
    const watch = watching(t, [file]);
    mkdirSync(join(dir, 'not/yet'), { recursive: true });
    writeFileSync(file, '1');
    await until(() => watch.calls() >= 1);
    const calls = watch.calls();
    writeFileSync(file, '2');
    await until(() => watch.calls() > calls);
  });

  test('a symbolic link whose target is swapped (as Kubernetes updates a ConfigMap) is followed', async (t) => {
    const dir = mkdtempSync(join(work, 'configmap-'));
    mkdirSync(join(dir, '..v1'));
    writeFileSync(join(dir, '..v1/a.graphql'), '1');
    symlinkSync('..v1', join(dir, '..data'));
    symlinkSync('..data/a.graphql', join(dir, 'a.graphql'));
    const watch = watching(t, [join(dir, 'a.graphql')]);
    mkdirSync(join(dir, '..v2'));
    writeFileSync(join(dir, '..v2/a.graphql'), '2');
    symlinkSync('..v2', join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    rmSync(join(dir, '..v1'), { recursive: true });
    await until(() => watch.calls() >= 1);
    // The watch moved to the new target: an edit of it is seen.
    const calls = watch.calls();
    writeFileSync(join(dir, '..v2/a.graphql'), '3');
    await until(() => watch.calls() > calls);
  });

  test('calls nothing once stopped', async (t) => {
    const dir = mkdtempSync(join(work, 'stopped-'));
    writeFileSync(join(dir, 'a.graphql'), '');
    const watch = watching(t, [dir]);
    watch.stop();
    writeFileSync(join(dir, 'a.graphql'), 'changed');
    await quiet();
    assert.equal(watch.calls(), 0);
  });

  test('a directory that cannot be watched is said, by path and reason, and changes are still seen', async (t) => {
    const dir = mkdtempSync(join(work, 'refused-'));
    writeFileSync(join(dir, 'a.graphql'), '');
    const warnings: string[] = [];
    const watch = watching(t, [dir], {
      watch: () => {
        throw Object.assign(new Error('System limit for number of file watchers reached'), {
          code: 'ENOSPC',
        });
      },
      warn: (line) => void warnings.push(line),
    });
    assert.ok(
      warnings.includes(`cannot watch ${dir} (ENOSPC): looking for changes every 2 s instead`),
      warnings.join('\n'),
    );
    writeFileSync(join(dir, 'a.graphql'), 'changed');
    await until(() => watch.calls() === 1);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub/b.graphql'), '');
    await until(() => watch.calls() === 2);
  });
});
