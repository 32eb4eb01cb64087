// `npm run demo`: serves the embedded library API on 127.0.0.1, starts the built graphql-mcp against it
// through the real MCP SDK client over stdio, as an MCP client would, and prints the session; then serves a
// second small API beside it, and starts graphql-mcp with a config file naming both.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildSchema } from 'graphql';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { serveGraphQL } from './graphql-server.ts';
import { createLibraryApi } from './library-api.ts';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '../dist/cli.cjs');
// Curated operations, each a tool of its own (--operations).
const operations = join(here, 'operations');
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
const indent = (text: string) => text.replace(/^/gm, '    ');

const api = createLibraryApi();
const graphqlServer = await serveGraphQL(api.schema, api.rootValue);
// The demo's client can ask its user (elicitation), as Claude Code, Cursor and VS Code can: its "user" accepts the
// first mutation put to it and declines the next.
const client = new Client(
  { name: 'graphql-mcp-demo', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } } },
);
const answers = ['accept', 'decline'] as const;
let asked = 0;
client.setRequestHandler('elicitation/create', async (request) => {
  const action = answers[asked++] ?? 'decline';
  console.log(indent(`? the client asks its user:\n${indent(request.params.message)}`));
  console.log(indent(`! the user answers: ${action}`));
  return { action };
});
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [
    cli,
    `--endpoint=${graphqlServer.url}`,
    '--headers={"Authorization":"Bearer demo-token"}',
    `--operations=${operations}`,
  ],
  stderr: 'ignore',
});

let step = 0;
async function show(title: string, name: string, args: Record<string, unknown>): Promise<void> {
  console.log(`\n${bold(`${++step}. ${title}`)}`);
  console.log(indent(`→ ${name} ${JSON.stringify(args)}`));
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const [first, ...notes] = result.content.map((item) =>
    item.type === 'text' ? item.text : `[${item.type}]`,
  );
  // The server answers compact JSON for the model; the demo indents it for people.
  let shown = first ?? '';
  if (result.structuredContent) shown = JSON.stringify(result.structuredContent, null, 2);
  console.log(indent(`← ${result.isError ? 'isError ' : ''}${shown}`));
  for (const note of notes) console.log(indent(`← ${note}`));
}

try {
  console.log(bold('graphql-mcp demo'));
  console.log(
    `The library API serves ${graphqlServer.url}; graphql-mcp runs as an MCP client would start it:`,
  );
  console.log(
    indent(
      `node dist/cli.cjs --endpoint=${graphqlServer.url} --headers='{"Authorization":"Bearer …"}' --operations=demo/operations`,
    ),
  );
  await client.connect(transport);

  console.log(`\n${bold(`${++step}. tools/list`)}`);
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const inputs = Object.keys(tool.inputSchema.properties ?? {}).join(', ');
    const hints = Object.entries(tool.annotations ?? {})
      .filter(([key, value]) => key.endsWith('Hint') && value === true)
      .map(([key]) => key.replace('Hint', ''))
      .join(', ');
    console.log(indent(`${tool.name}(${inputs})  [${hints}]\n  ${tool.description}`));
  }

  await show('The schema, introspected (deprecated fields left out)', 'graphql_introspect', {});
  await show('A query with variables', 'graphql_query', {
    query:
      'query Books($genre: Genre, $first: Int) { books(genre: $genre, first: $first) { title year author { name } } }',
    variables: { genre: 'FICTION', first: 2 },
  });
  await show(
    'A curated tool: the operation BooksByGenre from demo/operations/books.graphql',
    'BooksByGenre',
    {
      genre: 'SCIENCE',
    },
  );

  // What the user (not the model) picks in the client: a resource to attach, a prompt to start with.
  console.log(`\n${bold(`${++step}. A resource to attach to the conversation: one type of the schema`)}`);
  const { resources } = await client.listResources();
  const { resourceTemplates } = await client.listResourceTemplates();
  const listed = [...resources.map((r) => r.uri), ...resourceTemplates.map((t) => t.uriTemplate)];
  console.log(indent(`resources/list, resources/templates/list: ${listed.join(', ')}`));
  const uri = 'graphql://default/types/Book';
  console.log(indent(`→ resources/read ${uri}`));
  const { contents } = await client.readResource({ uri });
  console.log(indent(`← ${'text' in contents[0]! ? contents[0].text : '[blob]'}`));

  console.log(`\n${bold(`${++step}. A prompt to start from: explore_api`)}`);
  const goal = { goal: 'the two newest science books and their authors' };
  console.log(indent(`→ prompts/get explore_api ${JSON.stringify(goal)}`));
  const prompt = await client.getPrompt({ name: 'explore_api', arguments: goal });
  for (const { role, content } of prompt.messages) {
    console.log(indent(`← ${role}: ${content.type === 'text' ? content.text : `[${content.type}]`}`));
  }

  const mutation =
    'mutation { addReview(bookId: "b3", rating: 5, text: "Wonderful.") { id rating book { title } } }';
  await show('A mutation, refused: the model did not allow it', 'graphql_query', { query: mutation });
  await show(
    'The same mutation with allowMutations: true: the user is asked, and confirms',
    'graphql_query',
    {
      query: mutation,
      allowMutations: true,
    },
  );
  await show('Another mutation the model allowed: the user is asked, and declines', 'graphql_query', {
    query: 'mutation { addReview(bookId: "b1", rating: 1, text: "Dull.") { id } }',
    allowMutations: true,
  });
  await show('A syntax error', 'graphql_query', { query: '{ books { title }' });
  await show('A misspelt field, caught against the schema read in step 2', 'graphql_query', {
    query: '{ books(first: 2) { titel } }',
  });
  const aliases = Array.from({ length: 13 }, (_, i) => `shelf${i}: books { ...Card }`).join(' ');
  await show('Too complex: more fields than --maxComplexity (100)', 'graphql_query', {
    query: `{ ${aliases} } fragment Card on Book { title year genre isbn13 author { name born } }`,
  });
  console.log(
    `\nThe endpoint saw ${graphqlServer.requests.length} requests; the refused calls never reached it.`,
  );
  await client.close();
  await severalApis();
  console.log(`\n${bold('Done.')}`);
} finally {
  await client.close();
  await graphqlServer.close();
}

/**
 * Two APIs from one config file (--config): the library API and a small inventory API, each with its own token
 * taken from the environment, and each call reaching its own API with its own token.
 */
async function severalApis(): Promise<void> {
  const inventory = await serveGraphQL(
    buildSchema('type Query { "Copies in stock of a book, by ISBN-13." stock(isbn: String!): Int! }'),
    { stock: () => 3 },
  );
  const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-demo-'));
  const file = join(dir, 'graphql-mcp.json');
  const config = {
    apis: {
      library: { endpoint: graphqlServer.url, headers: { Authorization: 'Bearer ${env:LIBRARY_TOKEN}' } },
      inventory: {
        endpoint: inventory.url,
        headers: { 'X-Api-Key': '${env:INVENTORY_KEY}' },
        readOnly: true,
      },
    },
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  console.log(`\n${bold(`${++step}. Two APIs from one config file`)}`);
  console.log(
    indent(
      `node dist/cli.cjs --config=graphql-mcp.json, the file:\n${indent(JSON.stringify(config, null, 2))}`,
    ),
  );
  const two = new Client({ name: 'graphql-mcp-demo', version: '1.0.0' });
  await two.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, `--config=${file}`],
      env: { PATH: process.env.PATH ?? '', LIBRARY_TOKEN: 'library-token', INVENTORY_KEY: 'inventory-key' },
      stderr: 'ignore',
    }),
  );
  try {
    const { tools } = await two.listTools();
    const query = tools.find((tool) => tool.name === 'graphql_query')!;
    const apiInput = (query.inputSchema.properties as Record<string, { enum?: string[] }>).api;
    console.log(indent(`← graphql_query takes api: ${apiInput?.enum?.join(' | ')}`));
    for (const [api, document, server] of [
      ['library', '{ books(first: 1) { title } }', graphqlServer],
      ['inventory', '{ stock(isbn: "9780441478125") }', inventory],
    ] as const) {
      const args = { api, query: document };
      console.log(indent(`→ graphql_query ${JSON.stringify(args)}`));
      const result = (await two.callTool({ name: 'graphql_query', arguments: args })) as CallToolResult;
      console.log(indent(`← ${JSON.stringify(result.structuredContent)}`));
      const { headers } = server.requests.at(-1)!;
      const sent = headers.authorization ?? headers['x-api-key'];
      console.log(indent(`  ${api} received its own credential: ${String(sent)}`));
    }
  } finally {
    await two.close();
    await inventory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
