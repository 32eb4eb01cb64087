// Prompts: the built-in ones that start work with the tools well, and the operator's own from Markdown files
// (--prompts), over stdio; a prompt file that cannot be used stops the start. Every era and transport:
// resources-eras.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli, startMcp, type McpSession, useSession } from '../fixtures/mcp.ts';

// Nothing listens there: prompts ask nothing of the API.
const ENDPOINT = 'http://127.0.0.1:9/graphql';

let work: string;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'graphql-mcp-prompts-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(work, 'prompts-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function promptText(session: McpSession, name: string, args: Record<string, string>): Promise<string> {
  const { messages } = await session.client.getPrompt({ name, arguments: args });
  assert.equal(messages.length, 1);
  const content = messages[0]!.content as { type: string; text: string };
  return content.text;
}

describe('the built-in prompts', () => {
  const session = useSession(() => [`--endpoint=${ENDPOINT}`]);

  test('explore_api: the goal, then the tools in the order that reads the least schema', async () => {
    const text = await promptText(session(), 'explore_api', { goal: 'the three newest books' });
    assert.match(text, /^Goal: the three newest books\n/);
    assert.match(text, /the GraphQL API at http:\/\/127\.0\.0\.1:9\/graphql/);
    const order = ['with no arguments', 'with search', 'with typeNames', 'graphql_query'].map((step) =>
      text.indexOf(step),
    );
    assert.ok(
      order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)),
      `steps in order: ${order.join(', ')}`,
    );
  });

  test('write_query: the need, and a mutation written but not run', async () => {
    const text = await promptText(session(), 'write_query', { need: 'books by genre' });
    assert.match(text, /that does this: books by genre\n/);
    assert.match(text, /a mutation you write but do not run/);
  });

  test('explain_error: the error, and the document only when given', async () => {
    const without = await promptText(session(), 'explain_error', { error: 'SYNTAX_ERROR: Expected Name' });
    assert.match(without, /SYNTAX_ERROR: Expected Name/);
    assert.doesNotMatch(without, /```graphql/);
    const withQuery = await promptText(session(), 'explain_error', {
      error: 'SYNTAX_ERROR: Expected Name',
      query: '{ books {',
    });
    assert.match(withQuery, /```graphql\n\{ books \{\n```/);
  });

  test('refuses a prompt without its required argument, naming it', async () => {
    await assert.rejects(
      session().client.getPrompt({ name: 'explore_api', arguments: {} }),
      (error: Error) => {
        assert.match(error.message, /Invalid arguments for prompt explore_api: goal: is required, a string/);
        return true;
      },
    );
  });
});

describe('the operator prompts of --prompts', () => {
  let session: McpSession;
  before(async () => {
    const dir = folder({
      // No front matter: the file name, a heading for the description, each placeholder a required argument.
      'genre-digest.md': '# Sum up a genre\n\nList the books of {{genre}}, at most {{ count }} of them.\n',
      // Front matter, Apollo MCP Server's format.
      'team/check.md': [
        '---',
        'name: check_reviews',
        'title: Check reviews',
        'description: "Sum up the reviews of a book"  # shown in the picker',
        'arguments:',
        '  - name: book',
        "    description: The book's id",
        '    required: true',
        '  - name: tone',
        "    description: 'How to write it, e.g. ''short'''",
        '---',
        'Read the reviews of book {{book}} with graphql_query and sum them up. {{tone}}',
      ].join('\n'),
    });
    session = await startMcp([`--endpoint=${ENDPOINT}`, '--tools=graphql_query'], { GRAPHQL_PROMPTS: dir });
  });
  after(() => session.close());

  test('are listed with their titles, descriptions and arguments (and the built-in ones are not, without both tools)', async () => {
    const { prompts } = await session.client.listPrompts();
    assert.deepEqual(prompts, [
      {
        name: 'genre-digest',
        description: 'Sum up a genre',
        arguments: [
          { name: 'genre', required: true },
          { name: 'count', required: true },
        ],
      },
      {
        name: 'check_reviews',
        title: 'Check reviews',
        description: 'Sum up the reviews of a book',
        arguments: [
          { name: 'book', description: "The book's id", required: true },
          { name: 'tone', description: "How to write it, e.g. 'short'", required: false },
        ],
      },
    ]);
  });

  test('fill their placeholders, leaving out the heading that describes them', async () => {
    const text = await promptText(session, 'genre-digest', { genre: 'SCIENCE', count: '3' });
    assert.equal(text, 'List the books of SCIENCE, at most 3 of them.');
  });

  test('leave an optional argument that is not given empty', async () => {
    const text = await promptText(session, 'check_reviews', { book: 'b1' });
    assert.equal(text, 'Read the reviews of book b1 with graphql_query and sum them up. ');
  });

  test('MUST NOT read a value as a placeholder: {{…}} in a value stays as given', async () => {
    const text = await promptText(session, 'genre-digest', { genre: '{{count}}', count: '3' });
    assert.equal(text, 'List the books of {{count}}, at most 3 of them.');
  });
});

describe('prompt files that cannot be used stop the start with exit 2 and one line naming the file', () => {
  const cases: Array<{ name: string; files: Record<string, string>; expected: RegExp }> = [
    {
      name: 'an unknown key in the front matter',
      files: { 'a.md': '---\nname: a\nmodel: gpt\n---\nHello' },
      expected: /a\.md:3: unknown key model \(the keys are name, title, description, arguments\)/,
    },
    {
      name: 'a front matter that is not closed',
      files: { 'a.md': '---\nname: a\nHello' },
      expected: /a\.md:1: the front matter opened by --- is not closed by a --- line/,
    },
    {
      name: 'a placeholder that arguments does not declare',
      files: { 'a.md': '---\narguments:\n  - name: x\n---\n{{x}} and {{y}}' },
      expected: /a\.md: the text uses \{\{y\}\}, which arguments does not declare/,
    },
    {
      name: 'an argument the text does not use',
      files: { 'a.md': '---\narguments:\n  - name: x\n  - name: z\n---\n{{x}}' },
      expected: /a\.md: the argument z is declared but the text has no \{\{z\}\}/,
    },
    {
      name: 'a required that is not true or false',
      files: { 'a.md': '---\narguments:\n  - name: x\n    required: maybe\n---\n{{x}}' },
      expected: /a\.md:3: required of x must be true or false/,
    },
    {
      name: 'a file without text',
      files: { 'a.md': '---\ndescription: nothing\n---\n\n' },
      expected: /a\.md: holds no prompt text/,
    },
    {
      name: 'the name of a built-in prompt',
      files: { 'explore_api.md': 'Explore.' },
      expected: /explore_api\.md: explore_api is the name of a built-in prompt; choose another/,
    },
    {
      name: 'a name used twice',
      files: { 'a.md': 'One.', 'b.md': '---\nname: a\n---\nTwo.' },
      expected: /b\.md: the prompt name a is used twice \(also by .*a\.md\)/,
    },
    {
      name: 'a file name that is no prompt name',
      files: { 'my prompt.md': 'Hello' },
      expected: /my prompt\.md: the prompt name must be 1 to 128 letters, digits, _, - or \./,
    },
    {
      name: 'a folder without .md files',
      files: { 'notes.txt': 'Hello' },
      expected: /: no \.md files found/,
    },
    {
      name: 'a file over 64 KiB',
      files: { 'a.md': 'x'.repeat(64 * 1024 + 1) },
      expected: /a\.md: is larger than 64 KiB; a prompt is a short text/,
    },
  ];
  for (const { name, files, expected } of cases) {
    test(`MUST refuse ${name}`, () => {
      const run = runCli([`--endpoint=${ENDPOINT}`, `--prompts=${folder(files)}`]);
      assert.equal(run.status, 2, run.stderr);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0]!, /^graphql-mcp: --prompts /);
      assert.match(lines[0]!, expected);
      assert.equal(run.stdout, '');
    });
  }

  test('MUST refuse a path that does not exist', () => {
    const run = runCli([`--endpoint=${ENDPOINT}`, `--prompts=${join(work, 'missing')}`]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^graphql-mcp: --prompts .*missing: cannot be read \(ENOENT\)\n$/);
  });
});
