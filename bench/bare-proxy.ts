// The floor of remote mode: a bare HTTP pass-through in a process of its own, with no MCP and no checks. It
// reads a tools/call of graphql_query, POSTs its query to the API over a keep-alive connection, and answers
// the API's response as the call's result. Nothing serving MCP over HTTP in front of an API can answer
// sooner than this two-hop path does. Started by bench/remote.ts with the API's URL as its argument; it
// prints its own URL on stdout and ends when its stdin closes.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const api = new URL(process.argv[2] ?? '');
const upstream = new Agent({ keepAlive: true, maxSockets: 64 });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id: unknown;
      params: { arguments: { query: string } };
    };
    const body = JSON.stringify({ query: call.params.arguments.query });
    const post = request(
      {
        host: api.hostname,
        port: api.port,
        path: api.pathname,
        method: 'POST',
        agent: upstream,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          const result = JSON.stringify({
            jsonrpc: '2.0',
            id: call.id,
            result: { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as unknown },
          });
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(result),
          });
          res.end(result);
        });
      },
    );
    post.end(body);
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
});
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
