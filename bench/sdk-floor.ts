// The floor of a stdio server on this SDK: one tool, graphql_query, on the same McpServer and serveStdio as
// ours, that POSTs its query with a keep-alive node:http agent and answers the API's response as text and as
// structuredContent (with an output schema), the result shape the contract asks of ours. No input checks, no
// endpoint or mutation guard, no complexity, no redaction, no deadline. No MCP server on this SDK that answers
// in this shape can call faster or hold less; the bench bundles it (bench/run.ts) and runs it beside ours.
import { McpServer, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Agent, request } from 'node:http';

const endpoint = new URL(process.argv[process.argv.indexOf('--endpoint') + 1] ?? '');
const agent = new Agent({ keepAlive: true });

/** A schema that lets every value through, advertised as `jsonSchema` (as ours are). */
function passThrough(jsonSchema: Record<string, unknown>): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'bench',
      validate: (value) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}

const inputSchema = passThrough({
  type: 'object',
  properties: { query: { type: 'string' } },
  required: ['query'],
});
// The same output schema as graphql_query's, so that a client validates as much.
const outputSchema = passThrough({
  type: 'object',
  properties: {
    data: { type: ['object', 'null'] },
    errors: { type: ['array', 'null'] },
    extensions: { type: ['object', 'null'] },
  },
});

function post(query: string): Promise<string> {
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: endpoint.hostname,
        port: endpoint.port,
        path: endpoint.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

serveStdio(() => {
  const server = new McpServer({ name: 'sdk-floor', version: '1' }, { capabilities: { tools: {} } });
  server.registerTool(
    'graphql_query',
    { description: 'Runs a GraphQL query', inputSchema, outputSchema },
    async (args) => {
      const text = await post(String(args.query));
      return {
        content: [{ type: 'text', text }],
        structuredContent: JSON.parse(text) as Record<string, unknown>,
      };
    },
  );
  return server;
});
