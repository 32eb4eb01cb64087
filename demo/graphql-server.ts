import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { graphql, type GraphQLSchema } from 'graphql';

/** A running GraphQL-over-HTTP server on 127.0.0.1. */
export interface RunningGraphQLServer {
  /** The endpoint, e.g. http://127.0.0.1:54321/graphql */
  readonly url: string;
  /** Every request received, with its headers, in order. */
  readonly requests: Array<{
    method: string;
    path: string;
    headers: IncomingMessage['headers'];
    body: string;
  }>;
  close(): Promise<void>;
}

/** Serves a schema at POST /graphql on 127.0.0.1 (port 0 picks a free port). */
export async function serveGraphQL(
  schema: GraphQLSchema,
  rootValue: unknown,
  port = 0,
): Promise<RunningGraphQLServer> {
  const requests: RunningGraphQLServer['requests'] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/graphql-response+json; charset=utf-8' });
      res.end(JSON.stringify(payload));
    };
    if (req.method !== 'POST' || !req.url?.startsWith('/graphql'))
      return send(404, { errors: [{ message: 'Not found' }] });
    let params: { query?: unknown; variables?: Record<string, unknown>; operationName?: string };
    try {
      params = JSON.parse(body);
    } catch {
      return send(400, { errors: [{ message: 'The body is not JSON.' }] });
    }
    if (typeof params.query !== 'string') return send(400, { errors: [{ message: 'No query was given.' }] });
    const result = await graphql({
      schema,
      source: params.query,
      rootValue,
      variableValues: params.variables,
      operationName: params.operationName,
    });
    send(result.data === undefined ? 400 : 200, result);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}/graphql`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
