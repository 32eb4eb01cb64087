import { ConfigError, parseCommand, USAGE, type Config } from './config.js';
import { describeEndpoint } from './http/endpoint.js';
import { serveStdio } from './transports/stdio.js';
import { VERSION } from './version.js';

// In stdio mode stdout carries the MCP protocol: everything else goes to stderr, always.
const log = (line: string) => void process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  let command;
  try {
    command = parseCommand(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log(`graphql-mcp: ${error.message}`);
    process.exit(2);
  }
  // --help and --version print to stdout and exit: no protocol session runs in these two cases.
  if (command.kind === 'help') return void process.stdout.write(`${USAGE}\n`);
  if (command.kind === 'version') return void process.stdout.write(`${VERSION}\n`);

  const { config } = command;
  if (config.transport === 'stdio') {
    await serveStdio(config);
    log(`graphql-mcp ${VERSION}: serving ${describe(config)} on stdio`);
    return;
  }
  // Loaded only in remote mode: the HTTP transport and its web-standard plumbing would slow every stdio start.
  const { serveHttp } = await import('./transports/http.js');
  const server = await serveHttp(config, log);
  log(`graphql-mcp ${VERSION}: serving ${describe(config)} at ${server.url}`);
  // SIGTERM (a process manager or an orchestrator stopping a replica): finish what is in flight, then exit.
  const stop = () => void server.shutdown().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function describe(config: Config): string {
  const headers = config.headers.size > 0 ? `, headers ${config.headers.names().join(', ')}` : '';
  const readOnly = config.readOnly ? ', read-only' : '';
  return `${describeEndpoint(config.endpoint)}${headers}${readOnly}`;
}

main().catch((error: unknown) => {
  log(`graphql-mcp: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
