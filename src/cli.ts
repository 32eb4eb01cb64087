#!/usr/bin/env node
// The bin: reads the configuration, then serves MCP on stdio (the SDK's serveStdio) or, in remote mode, over
// Streamable HTTP. Fatal problems go to stderr with an exit code; stdout carries only the protocol.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ConfigError, parseCommand, type Config } from './config.js';
import { describeEndpoint } from './http/endpoint.js';
import { log } from './log.js';
import { LiveOperations } from './operations/live.js';
import type { OperationSet } from './operations/load.js';
import { watchPaths } from './operations/watch.js';
import { usage } from './options.js';
import { BUILT_IN_PROMPTS } from './prompts/built-in.js';
import { loadPromptFiles, PromptsError } from './prompts/prompt-files.js';
import type { PromptDefinition } from './prompts/prompt.js';
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
  if (command.kind === 'help') return void process.stdout.write(`${usage()}\n`);
  if (command.kind === 'version') return void process.stdout.write(`${VERSION}\n`);

  // Read first: a bad prompt file stops the start before any introspection request.
  const prompts = operatorPrompts(command.config);
  const { config, operations, reload } = await prepared(command.config);
  const unknownTool = unknownScopedTool(config, operations);
  if (unknownTool !== undefined) {
    log(`graphql-mcp: --oauthToolScopes names ${unknownTool}, which is not a tool of this server`);
    process.exit(2);
  }
  if (config.transport === 'stdio') return serveOnStdio(config, prompts, operations, reload);

  // Remote mode's HTTP stack loads only in remote mode.
  const { serveHttp } = await import('./transports/http.js');
  const server = await serveHttp(config, log, operations, prompts);
  log(`graphql-mcp ${VERSION}: serving ${describe(config)} at ${server.url}`);
  // SIGTERM (a process manager or an orchestrator stopping a replica): finish what is in flight, then exit.
  const stop = () => void server.shutdown().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * The configuration with what its options name read: the schema file and the operation files (loaded only
 * when given). A problem with them stops the start like a bad option.
 */
async function prepared(
  config: Config,
): Promise<{ config: Config; operations?: LiveOperations; reload?: () => OperationSet }> {
  if (config.schemaFile === undefined && config.operations.length === 0) return { config };
  const { prepare } = await import('./prepare.js');
  let ready;
  try {
    ready = await prepare(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log(`graphql-mcp: ${error.message}`);
    process.exit(2);
  }
  if (ready.operations === undefined) return { config: ready.config };
  for (const line of ready.operations.skipped) log(`graphql-mcp: ${line}`);
  // Only stdio watches the files: a remote deployment changes its tools by a new release of its replicas.
  const operations = new LiveOperations(ready.operations, config.transport === 'stdio');
  return { config: ready.config, operations, reload: ready.loadOperations };
}

/** The prompt files --prompts names, read once; a problem with one stops the start like a bad option. */
function operatorPrompts(config: Config): PromptDefinition[] {
  if (config.prompts.length === 0) return [];
  try {
    return loadPromptFiles(config.prompts, BUILT_IN_PROMPTS);
  } catch (error) {
    if (!(error instanceof PromptsError)) throw error;
    log(`graphql-mcp: --prompts ${error.message}`);
    process.exit(2);
  }
}

/** One client over stdin/stdout, in whichever protocol era it opens with, until it closes stdin or a signal. */
function serveOnStdio(
  config: Config,
  prompts: readonly PromptDefinition[],
  operations?: LiveOperations,
  reload?: () => OperationSet,
): void {
  const session = serveStdio(({ era }) => createServer(config, { era, operations, prompts }), {
    onerror: (error) => log(`graphql-mcp: ${error.message}`),
  });
  const unwatch =
    operations !== undefined && reload !== undefined
      ? watchPaths(config.operations, () => reloadOperations(operations, reload))
      : undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    unwatch?.();
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

/** Reads the operation files again; one that no longer checks out leaves the tools as they were. */
function reloadOperations(operations: LiveOperations, reload: () => OperationSet): void {
  let set: OperationSet;
  try {
    set = reload();
  } catch (error) {
    log(
      `graphql-mcp: --operations changed but ${error instanceof Error ? error.message : String(error)}; the previous tools stay`,
    );
    return;
  }
  for (const line of set.skipped) log(`graphql-mcp: ${line}`);
  operations.replace(set);
  log(`graphql-mcp: --operations reloaded: ${set.tools.map((tool) => tool.name).join(', ') || 'no tools'}`);
}

/** A tool --oauthToolScopes names that this server does not offer (a typo would leave a tool unprotected). */
function unknownScopedTool(config: Config, operations: LiveOperations | undefined): string | undefined {
  const known = new Set<string>([
    ...config.tools,
    ...(operations?.current.tools.map((tool) => tool.name) ?? []),
  ]);
  return [...(config.http.oauth?.toolScopes.keys() ?? [])].find((name) => !known.has(name));
}

function describe(config: Config): string {
  const headers = config.headers.size > 0 ? `, headers ${config.headers.names().join(', ')}` : '';
  const readOnly = config.readOnly ? ', read-only' : `, mutations: ${config.mutations}`;
  const oauth = config.http.oauth !== undefined ? `, OAuth tokens of ${config.http.oauth.issuer.origin}` : '';
  const schema = config.schemaFile !== undefined ? `, schema from ${config.schemaFile}` : '';
  return `${describeEndpoint(config.endpoint)}${headers}${readOnly}${schema}${oauth}`;
}

main().catch((error: unknown) => {
  log(`graphql-mcp: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
