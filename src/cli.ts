// Start-up (dist/start.cjs, which the bin runs through its code cache: bin.ts). It loads little: the
// configuration and, in stdio mode, the start-up of the session (transports/stdio.ts); the engine, with the
// MCP SDK, loads when the session needs it.
import { ConfigError, parseCommand, USAGE, type Config } from './config.js';
import { loadEngine } from './engine-loader.js';
import { describeEndpoint } from './http/endpoint.js';
import { log } from './log.js';
import { serveStdio } from './transports/stdio.js';
import { VERSION } from './version.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let command;
  try {
    command = parseCommand(argv, process.env);
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
    serveStdio(config, argv, process.env, log);
    // A turn later: a client's initialize that is already waiting is answered first.
    setImmediate(() => log(`graphql-mcp ${VERSION}: serving ${describe(config)} on stdio`));
    return;
  }
  const server = await loadEngine(log).serveHttp(argv, process.env, log);
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
