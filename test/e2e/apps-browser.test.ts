// graphql-mcp's MCP App in a real browser: Debian's Chromium, driven by playwright-core, loads a host page built
// on the ext-apps SDK's AppBridge (test/browser/host/), which renders the view that graphql-mcp serves, the view
// being the very HTML a client reads from the built server. The MCP client is the real SDK client over stdio,
// declaring MCP Apps and no elicitation, as Claude Desktop does. The API's own log proves what was sent.
// Screenshots of each view go to GRAPHQL_MCP_SCREENSHOTS (docs/images/ refreshes the docs'), else a temporary
// directory. Without a browser the tests are skipped, except in CI, where a browser that cannot start fails them.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type FrameLocator, type Page } from 'playwright-core';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { CLI } from '../fixtures/mcp.ts';
import { mutationsReceived } from '../fixtures/mutations.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const inCi = process.env.CI === 'true';
const skip = !inCi && !existsSync(CHROMIUM) ? `no browser at ${CHROMIUM} (Debian's chromium package)` : false;
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const ADD =
  'mutation Praise($id: ID!) { addReview(bookId: $id, rating: 5, text: "A classic") { rating text } }';
const BOOKS = '{ books { title year author { name } reviews { rating text } } }';

/** What the host page offers the test (test/browser/host/host.ts). */
interface HostWindow {
  showView(view: {
    html: string;
    args: Record<string, unknown>;
    result: CallToolResult;
    appTools: readonly string[];
  }): Promise<void>;
  modelContext: string[];
}

describe('the MCP App in Chromium', { skip }, () => {
  let api: RunningGraphQLServer;
  let client: Client;
  let tools: Tool[];
  let profile: string;
  let browser: BrowserContext;
  let page: Page;
  /** The errors the page and the view logged, or threw. */
  const problems: string[] = [];
  const shots = resolve(process.env.GRAPHQL_MCP_SCREENSHOTS ?? join(tmpdir(), 'graphql-mcp-screenshots'));

  before(async () => {
    const library = createLibraryApi();
    api = await serveGraphQL(library.schema, library.rootValue);
    client = new Client({ name: 'apps-host', version: '1.0.0' }, { capabilities: APPS });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, `--endpoint=${api.url}`, '--headers={"X-Library-Key":"key-0f9e8d7c6b5a"}'],
        env: { PATH: process.env.PATH ?? '' },
        stderr: 'ignore',
      }),
    );
    tools = (await client.listTools()).tools;
    profile = mkdtempSync(join(tmpdir(), 'graphql-mcp-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 760, height: 560 },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.exposeFunction(
      'hostCallTool',
      (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params),
    );
    await page.setContent(await hostPage());
    mkdirSync(shots, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await client?.close();
    await api?.close();
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  });

  /** The mutations the API received. */
  const mutationsSent = () => mutationsReceived(api);

  /** Calls a tool as the model would, and shows its result in the tool's view, as the host would. */
  async function show(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ view: FrameLocator; result: CallToolResult }> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const tool = tools.find((candidate) => candidate.name === name)!;
    const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    assert.ok(uri !== undefined, `${name} has a view`);
    const [contents] = (await client.readResource({ uri })).contents;
    assert.equal(contents?.mimeType, 'text/html;profile=mcp-app');
    const appTools = tools
      .filter((candidate) =>
        (candidate._meta?.ui as { visibility?: string[] } | undefined)?.visibility?.includes('app'),
      )
      .map((candidate) => candidate.name);
    const input = { html: (contents as { text: string }).text, args, result, appTools };
    await page.evaluate((view) => (globalThis as unknown as HostWindow).showView(view), input);
    return { view: page.frameLocator('iframe#view'), result };
  }

  const shoot = (name: string) => page.locator('iframe#view').screenshot({ path: join(shots, name) });

  test("MUST show a waiting mutation as the panel, with the question's text, and send it once when Run is clicked", async () => {
    const before = mutationsSent();
    const { view, result } = await show('graphql_query', {
      query: ADD,
      variables: { id: 'b1' },
      allowMutations: true,
    });
    const question = (result._meta as Record<string, string>)['graphql-mcp/question']!;
    assert.match(question, /addReview\(bookId: "b1", rating: 5, text: "A classic"\)/);
    await view.locator('.panel .question').waitFor();
    assert.equal(await view.locator('.panel .question').textContent(), question);
    assert.equal(mutationsSent(), before, 'nothing sent while the panel waits');
    await shoot('panel.png');

    await view.getByRole('button', { name: 'Run' }).click();
    await view.locator('.panel[data-state="sent"]').waitFor();
    assert.equal(mutationsSent(), before + 1, 'sent once');
    assert.deepEqual(
      await view.locator('.response dd dd').allTextContents(),
      ['5', 'A classic'],
      "the API's answer",
    );
    assert.ok(await view.getByRole('button', { name: 'Run' }).isDisabled(), 'Run is used up');
    assert.match(
      (await page.evaluate(() => (globalThis as unknown as HostWindow).modelContext)).at(-1) ?? '',
      /confirmed the mutation in the panel; it was sent once/,
    );
    await shoot('panel-sent.png');
  });

  test('MUST NOT send a mutation whose panel is cancelled', async () => {
    const before = mutationsSent();
    const { view } = await show('graphql_query', {
      query: ADD,
      variables: { id: 'b2' },
      allowMutations: true,
    });
    await view.getByRole('button', { name: 'Cancel' }).click();
    await view.locator('.panel[data-state="cancelled"]').waitFor();
    assert.equal(await view.locator('.status').textContent(), 'Cancelled: nothing was sent.');
    assert.ok(await view.getByRole('button', { name: 'Run' }).isDisabled());
    assert.equal(mutationsSent(), before);
    const told = await page.evaluate(() => (globalThis as unknown as HostWindow).modelContext);
    assert.match(told.at(-1) ?? '', /cancelled the mutation/);
  });

  test('MUST say that a mutation cannot be confirmed where the host keeps the confirmation from the view, and send nothing', async () => {
    const before = mutationsSent();
    const result = (await client.callTool({
      name: 'graphql_query',
      arguments: { query: ADD, variables: { id: 'b3' }, allowMutations: true },
    })) as CallToolResult;
    const { _meta: _dropped, ...kept } = result;
    const tool = tools.find((candidate) => candidate.name === 'graphql_query')!;
    const [contents] = (
      await client.readResource({ uri: (tool._meta!.ui as { resourceUri: string }).resourceUri })
    ).contents;
    await page.evaluate((view) => (globalThis as unknown as HostWindow).showView(view), {
      html: (contents as { text: string }).text,
      args: {},
      result: kept,
      appTools: [],
    });
    const view = page.frameLocator('iframe#view');
    await view.locator('.panel[data-state="unconfirmable"]').waitFor();
    assert.equal(await view.getByRole('button').count(), 0, 'no Run button');
    assert.equal(mutationsSent(), before);
    const told = await page.evaluate(() => (globalThis as unknown as HostWindow).modelContext);
    assert.match(told.at(-1) ?? '', /could not be confirmed/);
  });

  test("MUST show a query's result as a table whose cells hold the API's values, the server's notes above it", async () => {
    // Another origin than the configured endpoint's (localhost for 127.0.0.1): the startup header is withheld,
    // which a note says.
    const endpoint = api.url.replace('127.0.0.1', 'localhost');
    const { view, result } = await show('graphql_query', { query: BOOKS, endpoint });
    await view.locator('table').first().waitFor();
    const notes = (result.structuredContent as { extensions: { 'graphql-mcp': { notes: string[] } } })
      .extensions['graphql-mcp'].notes;
    assert.match(notes[0] ?? '', /X-Library-Key/);
    assert.deepEqual(await view.locator('.notes li').allTextContents(), notes);
    // The API's own answer to the same document.
    const response = await fetch(api.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: BOOKS }),
    });
    const { data } = (await response.json()) as {
      data: {
        books: Array<{
          title: string;
          year: number;
          author: { name: string };
          reviews: Array<{ rating: number }>;
        }>;
      };
    };
    const table = view.locator('dd > .table > table').first();
    assert.deepEqual(await table.locator(':scope > thead th').allTextContents(), [
      'title',
      'year',
      'author',
      'reviews',
    ]);
    const rows = table.locator(':scope > tbody > tr');
    assert.equal(await rows.count(), data.books.length);
    for (const [index, book] of data.books.entries()) {
      const cells = rows.nth(index).locator(':scope > td');
      assert.equal(await cells.nth(0).textContent(), book.title);
      assert.equal(await cells.nth(1).textContent(), String(book.year));
      assert.equal(await cells.nth(2).locator('dd').first().textContent(), book.author.name);
      // A list inside a row: a table of its own.
      const ratings = await cells.nth(3).locator('tbody > tr > td:first-child').allTextContents();
      assert.deepEqual(
        ratings,
        book.reviews.map((review) => String(review.rating)),
      );
    }
    await shoot('results.png');
  });

  test('MUST keep the view off the network: its Content-Security-Policy refuses a fetch, and it broke none of it', async () => {
    await show('graphql_query', { query: '{ authors { name } }' });
    const frame = (await (await page.locator('iframe#view').elementHandle())!.contentFrame())!;
    await frame.locator('table').waitFor();
    const before = api.requests.length;
    const outcome = await frame.evaluate(async (url) => {
      try {
        await fetch(url, { method: 'POST', body: '{"query":"{ authors { name } }"}' });
        return 'fetched';
      } catch (error) {
        return String(error);
      }
    }, api.url);
    assert.match(outcome, /TypeError/);
    assert.equal(api.requests.length, before, 'nothing reached the API');
    const refusals = problems.filter((problem) => /Content Security Policy|Refused to/i.test(problem));
    // Chromium reports the refused fetch (twice: the directive, then the fetch), and nothing else.
    assert.ok(refusals.length > 0, 'the refusal is reported');
    assert.ok(
      refusals.every((refusal) => refusal.includes(api.url)),
      refusals.join('\n'),
    );
    assert.match(refusals[0]!, /connect-src 'none'/);
    assert.deepEqual(
      problems.filter((problem) => !refusals.includes(problem)),
      [],
      'no other error in the page or the view',
    );
  });
});

/** The host page: its script, the ext-apps SDK's host side with test/browser/host/host.ts, bundled for the browser. */
async function hostPage(): Promise<string> {
  const bundled = await build({
    entryPoints: [join(root, 'test/browser/host/host.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0]!.text.replace(/<\/(script)/gi, '<\\/$1');
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title><style>body{margin:0;background:#e9e9ee;padding:16px}iframe{width:100%;border:0;border-radius:8px;background:#fff;display:block}</style></head><body><script>${script}</script></body></html>`;
}
