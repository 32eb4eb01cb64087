import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, parseCommand, USAGE, type Config } from './config.js';
import { describeEndpoint } from './http/endpoint.js';
import { createServer } from './server.js';
import { VERSION } from './version.js';

// stdout carries the MCP protocol once the server runs: everything else goes to stderr.

async function main(): Promise<void> {
  let command;
  try {
    command = parseCommand(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`graphql-mcp: ${error.message}\n`);
    process.exit(2);
  }
  if (command.kind === 'help') return void process.stdout.write(`${USAGE}\n`);
  if (command.kind === 'version') return void process.stdout.write(`${VERSION}\n`);

  const { config } = command;
  const server = createServer(config);
  const stop = () => {
    void server.close().finally(() => process.exit(0));
    // A close that hangs must not keep the process alive.
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // The client closing stdin ends the session.
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`graphql-mcp ${VERSION}: serving ${describe(config)}\n`);
}

function describe(config: Config): string {
  const headers = config.headers.size > 0 ? `, headers ${config.headers.names().join(', ')}` : '';
  const readOnly = config.readOnly ? ', read-only' : '';
  return `${describeEndpoint(config.endpoint)}${headers}${readOnly}`;
}

main().catch((error: unknown) => {
  process.stderr.write(`graphql-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
