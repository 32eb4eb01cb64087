#!/usr/bin/env node
// The bin: reads the configuration, then serves MCP on stdio (the SDK's serveStdio) or, in remote mode, over
// Streamable HTTP. Fatal problems go to stderr with an exit code; stdout carries only the protocol.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ConfigError, parseCommand, USAGE, type Config } from './config.js';
import { describeEndpoint } from './http/endpoint.js';
import { log } from './log.js';
import { createServer } from './server.js';
import { VERSION } from './version.js';

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
  if (config.transport === 'stdio') return serveOnStdio(config);

  // Remote mode's HTTP stack loads only in remote mode.
  const { serveHttp } = await import('./transports/http.js');
  const server = await serveHttp(config, log);
  log(`graphql-mcp ${VERSION}: serving ${describe(config)} at ${server.url}`);
  // SIGTERM (a process manager or an orchestrator stopping a replica): finish what is in flight, then exit.
  const stop = () => void server.shutdown().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** One client over stdin/stdout, in whichever protocol era it opens with, until it closes stdin or a signal. */
function serveOnStdio(config: Config): void {
  const session = serveStdio(({ era }) => createServer(config, { era }), {
    onerror: (error) => log(`graphql-mcp: ${error.message}`),
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void session.close().finally(() => process.exit(0));
    // A close that hangs must not keep the process alive.
    setTimeout(() => process.exit(0), 500).unref();
  };
  // The client closing stdin ends the session; kept-alive connections to the endpoint must not keep us alive.
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  log(`graphql-mcp ${VERSION}: serving ${describe(config)} on stdio`);
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
