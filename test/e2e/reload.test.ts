// Hot reload of --operations in stdio mode, the way editors save: a temporary file renamed over the old one
// (vim, the JetBrains IDEs, most "atomic" writers), delete and re-create, directories swapped, emptied or added,
// bursts of saves. Each case spawns the built server on its own files, changes them as the editor does, and
// waits (with a deadline) until the tool list shows the change and the client has been told.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startMcp, type McpSession } from '../fixtures/mcp.ts';

const SDL = 'type Query { books: [String!]! }';

/** A file holding one query per name; the tool list then shows exactly these names. */
const queries = (...names: string[]) => names.map((name) => `query ${name} { books }\n`).join('');

let work: string;
let schema: string;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'graphql-mcp-reload-'));
  schema = join(work, 'schema.graphql');
  writeFileSync(schema, SDL);
});

after(() => rmSync(work, { recursive: true, force: true }));

/** A new directory under the work directory holding these files (paths may name subdirectories). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(work, 'ops-'));
  for (const [name, text] of Object.entries(files)) write(join(dir, name), text);
  return dir;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

let temporaries = 0;

/** Saves as most "atomic" writers do: the new text to a temporary file, renamed over the old one. */
function atomicSave(file: string, text: string): void {
  const temporary = join(dirname(file), `.${basename(file)}.${++temporaries}.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** Saves as vim does by default: a probe file, the old file renamed to a backup, a new file, no backup. */
function vimSave(file: string, text: string): void {
  const probe = join(dirname(file), '4913');
  writeFileSync(probe, '');
  unlinkSync(probe);
  renameSync(file, `${file}~`);
  writeFileSync(file, text);
  unlinkSync(`${file}~`);
}

/** Saves as the JetBrains IDEs do ("safe write"): a temporary file, the old one moved aside, then removed. */
function jetbrainsSave(file: string, text: string): void {
  writeFileSync(`${file}___jb_tmp___`, text);
  renameSync(file, `${file}___jb_old___`);
  renameSync(`${file}___jb_tmp___`, file);
  unlinkSync(`${file}___jb_old___`);
}

/** A server on these operations, the list_changed notifications its client received, and bounded waits. */
interface Live {
  readonly session: McpSession;
  /** Makes a change and waits until the client is told and the operation tools are exactly `names`. */
  change(action: () => void, names: readonly string[]): Promise<void>;
  /** Makes a change and waits until stderr says the files no longer check out; the tools stay as they were. */
  refuse(action: () => void, why: RegExp): Promise<void>;
  /** How many reloads stderr has told of. */
  reloads(): number;
  /** How many list_changed notifications the client received. */
  notified(): number;
}

/** Serves `--operations=<target>` (only the operation tools) until the test ends. */
async function serve(t: { after: (fn: () => Promise<void>) => void }, target: string): Promise<Live> {
  const session = await startMcp([`--schema=${schema}`, `--operations=${target}`, '--tools=none']);
  t.after(() => session.close());
  let notified = 0;
  session.client.setNotificationHandler('notifications/tools/list_changed', () => void notified++);
  const names = async () => (await session.client.listTools()).tools.map((tool) => tool.name).sort();
  const count = (pattern: RegExp) => session.stderr().match(pattern)?.length ?? 0;
  return {
    session,
    async change(action, expected) {
      const told = notified;
      action();
      await until(async () => notified > told, `a list_changed notification (for ${expected.join(', ')})`);
      const sorted = [...expected].sort();
      await until(async () => (await names()).join() === sorted.join(), `the tools ${sorted.join(', ')}`);
    },
    async refuse(action, why) {
      const before = await names();
      const refusals = count(/the previous tools stay/g);
      action();
      await until(async () => count(/the previous tools stay/g) > refusals, 'stderr to say why');
      assert.match(session.stderr(), why);
      assert.deepEqual(await names(), before, 'the tools stay as they were');
    },
    reloads: () => count(/--operations reloaded/g),
    notified: () => notified,
  };
}

/** Polls `done` until it holds, failing after a few seconds with what was awaited. */
async function until(done: () => Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('--operations=<directory> follows every editor', () => {
  test('atomic saves (a temporary file renamed over the old one) are followed, every one, and so is a later write and a delete', async (t) => {
    const dir = tree({ 'a.graphql': queries('First'), 'b.graphql': queries('Other') });
    const live = await serve(t, dir);
    await live.change(() => atomicSave(join(dir, 'a.graphql'), queries('Second')), ['Second', 'Other']);
    await live.change(() => atomicSave(join(dir, 'a.graphql'), queries('Third')), ['Third', 'Other']);
    await live.change(() => writeFileSync(join(dir, 'a.graphql'), queries('Fourth')), ['Fourth', 'Other']);
    await live.change(() => unlinkSync(join(dir, 'a.graphql')), ['Other']);
  });

  test('vim saves (the old file renamed to a backup, a new file written) are followed, every one', async (t) => {
    const dir = tree({ 'a.graphql': queries('First') });
    const live = await serve(t, dir);
    await live.change(() => vimSave(join(dir, 'a.graphql'), queries('Second')), ['Second']);
    await live.change(() => vimSave(join(dir, 'a.graphql'), queries('Third')), ['Third']);
  });

  test('JetBrains safe writes (a temporary file renamed in, the old one moved aside) are followed, every one', async (t) => {
    const dir = tree({ 'a.graphql': queries('First') });
    const live = await serve(t, dir);
    await live.change(() => jetbrainsSave(join(dir, 'a.graphql'), queries('Second')), ['Second']);
    await live.change(() => jetbrainsSave(join(dir, 'a.graphql'), queries('Third')), ['Third']);
  });

  test('a file deleted and re-created is followed both times', async (t) => {
    const dir = tree({ 'a.graphql': queries('First'), 'b.graphql': queries('Other') });
    const live = await serve(t, dir);
    await live.change(() => unlinkSync(join(dir, 'a.graphql')), ['Other']);
    await live.change(() => writeFileSync(join(dir, 'a.graphql'), queries('Again')), ['Again', 'Other']);
    await live.change(() => writeFileSync(join(dir, 'a.graphql'), queries('Edited')), ['Edited', 'Other']);
  });

  test('a burst of saves reloads once and tells the client once, and the last one wins, burst after burst', async (t) => {
    const dir = tree({ 'a.graphql': queries('First') });
    const live = await serve(t, dir);
    const saves = 30;
    for (const burst of ['A', 'B']) {
      const reloads = live.reloads();
      const notified = live.notified();
      await live.change(() => {
        for (let i = 1; i <= saves; i++) atomicSave(join(dir, 'a.graphql'), queries(`${burst}${i}`));
      }, [`${burst}${saves}`]);
      await until(async () => live.reloads() > reloads, 'stderr to tell of the reload');
      assert.equal(live.reloads() - reloads, 1, 'one reload for the burst');
      // The notifications came before the answer to the last tools/list, on the same stream.
      assert.equal(live.notified() - notified, 1, 'the client told once');
    }
  });

  test('a new subdirectory with files brings their operations, and edits in it are followed', async (t) => {
    const dir = tree({ 'a.graphql': queries('First') });
    const live = await serve(t, dir);
    await live.change(() => {
      write(join(dir, 'new/deeper/b.graphql'), queries('Deep'));
      write(join(dir, 'new/c.graphql'), queries('Shallow'));
    }, ['First', 'Deep', 'Shallow']);
    await live.change(
      () => atomicSave(join(dir, 'new/deeper/b.graphql'), queries('Deeper')),
      ['First', 'Deeper', 'Shallow'],
    );
    await live.change(
      () => writeFileSync(join(dir, 'new/deeper/b.graphql'), queries('Deepest')),
      ['First', 'Deepest', 'Shallow'],
    );
  });

  test('a subdirectory renamed is followed: edits in it, then its removal', async (t) => {
    const dir = tree({ 'a.graphql': queries('First'), 'sub/b.graphql': queries('Inside') });
    const live = await serve(t, dir);
    renameSync(join(dir, 'sub'), join(dir, 'renamed'));
    await live.change(() => atomicSave(join(dir, 'renamed/b.graphql'), queries('Moved')), ['First', 'Moved']);
    await live.change(() => rmSync(join(dir, 'renamed'), { recursive: true }), ['First']);
  });

  test('the directory replaced by another (renamed away, another renamed in) is followed, and so are edits in the new one', async (t) => {
    const dir = tree({ 'a.graphql': queries('Old') });
    const next = tree({ 'a.graphql': queries('New'), 'b.graphql': queries('Added') });
    const live = await serve(t, dir);
    await live.change(() => {
      renameSync(dir, `${dir}.old`);
      renameSync(next, dir);
    }, ['New', 'Added']);
    await live.change(() => atomicSave(join(dir, 'b.graphql'), queries('Edited')), ['New', 'Edited']);
    await live.change(() => unlinkSync(join(dir, 'b.graphql')), ['New']);
  });

  test('the directory renamed away keeps the tools and says why; renamed back, its edits are followed', async (t) => {
    const dir = tree({ 'a.graphql': queries('First') });
    const live = await serve(t, dir);
    await live.refuse(() => renameSync(dir, `${dir}.away`), /cannot be read \(ENOENT\)/);
    writeFileSync(join(`${dir}.away`, 'a.graphql'), queries('WhileAway'));
    await live.change(() => renameSync(`${dir}.away`, dir), ['WhileAway']);
    await live.change(() => atomicSave(join(dir, 'a.graphql'), queries('Back')), ['Back']);
  });

  test('the directory emptied keeps the tools and says why; a file added then brings its operations', async (t) => {
    const dir = tree({ 'a.graphql': queries('First'), 'sub/b.graphql': queries('Second') });
    const live = await serve(t, dir);
    await live.refuse(() => {
      unlinkSync(join(dir, 'a.graphql'));
      rmSync(join(dir, 'sub'), { recursive: true });
    }, /no \.graphql or \.gql files or \.json manifests found/);
    await live.change(() => atomicSave(join(dir, 'c.graphql'), queries('Third')), ['Third']);
  });
});

describe('--operations=<file> follows every editor', () => {
  test('atomic saves are followed, every one, and so is a later write', async (t) => {
    const file = join(tree({ 'a.graphql': queries('First') }), 'a.graphql');
    const live = await serve(t, file);
    await live.change(() => atomicSave(file, queries('Second')), ['Second']);
    await live.change(() => atomicSave(file, queries('Third')), ['Third']);
    await live.change(() => writeFileSync(file, queries('Fourth')), ['Fourth']);
  });

  test('vim saves are followed, every one', async (t) => {
    const file = join(tree({ 'a.graphql': queries('First') }), 'a.graphql');
    const live = await serve(t, file);
    await live.change(() => vimSave(file, queries('Second')), ['Second']);
    await live.change(() => vimSave(file, queries('Third')), ['Third']);
  });

  test('JetBrains safe writes are followed, every one', async (t) => {
    const file = join(tree({ 'a.graphql': queries('First') }), 'a.graphql');
    const live = await serve(t, file);
    await live.change(() => jetbrainsSave(file, queries('Second')), ['Second']);
    await live.change(() => jetbrainsSave(file, queries('Third')), ['Third']);
  });

  test('the file deleted keeps the tools and says why; re-created, it is followed again', async (t) => {
    const file = join(tree({ 'a.graphql': queries('First') }), 'a.graphql');
    const live = await serve(t, file);
    await live.refuse(() => unlinkSync(file), /a\.graphql: cannot be read \(ENOENT\)/);
    await live.change(() => writeFileSync(file, queries('Again')), ['Again']);
    await live.change(() => atomicSave(file, queries('Edited')), ['Edited']);
  });

  test('a burst of saves reloads once and tells the client once, and the last one wins, burst after burst', async (t) => {
    const file = join(tree({ 'a.graphql': queries('First') }), 'a.graphql');
    const live = await serve(t, file);
    const saves = 30;
    for (const burst of ['A', 'B']) {
      const reloads = live.reloads();
      const notified = live.notified();
      await live.change(() => {
        for (let i = 1; i <= saves; i++) atomicSave(file, queries(`${burst}${i}`));
      }, [`${burst}${saves}`]);
      await until(async () => live.reloads() > reloads, 'stderr to tell of the reload');
      assert.equal(live.reloads() - reloads, 1, 'one reload for the burst');
      // The notifications came before the answer to the last tools/list, on the same stream.
      assert.equal(live.notified() - notified, 1, 'the client told once');
    }
  });

  test('its directory replaced by another is followed, and so are edits in the new one', async (t) => {
    const dir = tree({ 'a.graphql': queries('Old') });
    const next = tree({ 'a.graphql': queries('New') });
    const file = join(dir, 'a.graphql');
    const live = await serve(t, file);
    await live.change(() => {
      renameSync(dir, `${dir}.old`);
      renameSync(next, dir);
    }, ['New']);
    await live.change(() => atomicSave(file, queries('Edited')), ['Edited']);
  });
});
