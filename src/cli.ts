#!/usr/bin/env node
// The bin: reads the configuration (the command line's one API, or a config file's several), then serves MCP on
// stdio (the SDK's serveStdio) or, in remote mode, over Streamable HTTP. Fatal problems go to stderr with an exit
// code; stdout carries only the protocol. In stdio mode the operation files and the config file are watched.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ConfigError, parseCommand, type Config } from './config.js';
import { describeEndpoint } from './http/endpoint.js';
import { Live } from './live.js';
import { log } from './log.js';
import type { OperationSet } from './operations/load.js';
import { watchPaths } from './operations/watch.js';
import { usage } from './options.js';
import { BUILT_IN_PROMPTS } from './prompts/built-in.js';
import { loadPromptFiles, PromptsError } from './prompts/prompt-files.js';
import type { PromptDefinition } from './prompts/prompt.js';
import { operationTools, toolNameClash, type LiveOperations, type ServedApi } from './api.js';
import { createServer } from './server.js';
import { VERSION } from './version.js';

/** An API as served, with what reads its operation files again. */
interface PreparedApi extends ServedApi {
  readonly reload?: () => OperationSet;
}

async function main(): Promise<void> {
  let command;
  try {
    command = parseCommand(process.argv.slice(2), process.env);
  } catch (error) {
    fail(error);
  }
  // --help and --version print to stdout and exit: no protocol session runs in these two cases.
  if (command.kind === 'help') return void process.stdout.write(`${usage()}\n`);
  if (command.kind === 'version') return void process.stdout.write(`${VERSION}\n`);
  for (const warning of command.warnings) log(`graphql-mcp: ${warning}`);

  // Read first: a bad prompt file stops the start before any introspection request.
  const prompts = operatorPrompts(command.config);
  const stdio = command.config.transport === 'stdio';
  let apis: PreparedApi[];
  try {
    apis = await prepared(command.apis, stdio);
  } catch (error) {
    fail(error);
  }
  const clash = toolNameClash(apis, command.config.tools);
  if (clash !== undefined) {
    log(`graphql-mcp: ${clash}; rename one of them`);
    process.exit(2);
  }
  const unknownTool = unknownScopedTool(apis);
  if (unknownTool !== undefined) {
    log(`graphql-mcp: --oauthToolScopes names ${unknownTool}, which is not a tool of this server`);
    process.exit(2);
  }
  if (stdio) return serveOnStdio(apis, prompts, command.configFile);

  // Remote mode's HTTP stack loads only in remote mode.
  const { serveHttp } = await import('./transports/http.js');
  const server = await serveHttp(apis, log, prompts);
  log(`graphql-mcp ${VERSION}: serving ${describe(apis)} at ${server.url}`);
  // SIGTERM (a process manager or an orchestrator stopping a replica): finish what is in flight, then exit.
  const stop = () => void server.shutdown().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** A bad start: one line on stderr, exit code 2. */
function fail(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  log(`graphql-mcp: ${error.message}`);
  process.exit(2);
}

/**
 * Each API with what its options name read: its schema file and its operation files (loaded only when given).
 * A problem with them is a ConfigError, like a bad option. `watched`: whether the operation files are followed.
 */
async function prepared(configs: readonly Config[], watched: boolean): Promise<PreparedApi[]> {
  const apis: PreparedApi[] = [];
  for (const config of configs) {
    if (config.schemaFile === undefined && config.operations.length === 0) {
      apis.push({ config });
      continue;
    }
    const { prepare } = await import('./prepare.js');
    let ready;
    try {
      ready = await prepare(config);
    } catch (error) {
      // Several APIs: say whose files these are.
      if (!(error instanceof ConfigError) || configs.length === 1) throw error;
      throw new ConfigError(`apis.${config.api}: ${error.message}`);
    }
    if (ready.operations === undefined) {
      apis.push({ config: ready.config });
      continue;
    }
    for (const line of ready.operations.skipped) log(`graphql-mcp: ${line}`);
    // Only stdio watches the files: a remote deployment changes its tools by a new release of its replicas.
    const operations = new Live(ready.operations, watched);
    apis.push({ config: ready.config, operations, reload: ready.loadOperations });
  }
  return apis;
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

/**
 * One client over stdin/stdout, in whichever protocol era it opens with, until it closes stdin or a signal. The
 * operation files are followed; so is the config file, whose every change is checked and applied whole.
 */
function serveOnStdio(
  apis: PreparedApi[],
  prompts: readonly PromptDefinition[],
  configFile: string | undefined,
): void {
  const live = new Live<readonly ServedApi[]>(apis, configFile !== undefined);
  const session = serveStdio(({ era }) => createServer(live, { era, prompts }), {
    onerror: (error) => log(`graphql-mcp: ${error.message}`),
  });
  let unwatchOperations = watchOperations(apis);
  const unwatchConfig =
    configFile === undefined
      ? undefined
      : watchPaths([configFile], () => {
          void reloadConfig(configFile).then((next) => {
            if (next === undefined) return;
            unwatchOperations();
            unwatchOperations = watchOperations(next);
            live.replace(next);
          });
        });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    unwatchOperations();
    unwatchConfig?.();
    void session.close().finally(() => process.exit(0));
    // A close that hangs must not keep the process alive.
    setTimeout(() => process.exit(0), 500).unref();
  };
  // The client closing stdin ends the session; kept-alive connections to the endpoint must not keep us alive.
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  log(`graphql-mcp ${VERSION}: serving ${describe(apis)} on stdio`);
}

/** Watches each API's operation files; returns what stops watching them all. */
function watchOperations(apis: readonly PreparedApi[]): () => void {
  const stops = apis.flatMap(({ config, operations, reload }) =>
    operations !== undefined && reload !== undefined
      ? [watchPaths(config.operations, () => reloadOperations(apis, config, operations, reload))]
      : [],
  );
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * Reads an API's operation files again; one that no longer checks out, or whose names would clash with another
 * tool, leaves the tools as they were.
 */
function reloadOperations(
  apis: readonly PreparedApi[],
  config: Config,
  operations: LiveOperations,
  reload: () => OperationSet,
): void {
  const of = config.api === 'default' ? '' : ` of ${config.api}`;
  let set: OperationSet;
  try {
    set = reload();
  } catch (error) {
    log(
      `graphql-mcp: --operations${of} changed but ${error instanceof Error ? error.message : String(error)}; the previous tools stay`,
    );
    return;
  }
  const next = apis.map((api) =>
    api.operations === operations ? { ...api, operations: new Live(set, false) } : api,
  );
  const clash = toolNameClash(next, config.tools);
  if (clash !== undefined) {
    log(`graphql-mcp: --operations${of} changed but ${clash}; the previous tools stay`);
    return;
  }
  for (const line of set.skipped) log(`graphql-mcp: ${line}`);
  operations.replace(set);
  log(
    `graphql-mcp: --operations${of} reloaded: ${set.tools.map((tool) => tool.name).join(', ') || 'no tools'}`,
  );
}

/** The config file read again, with its APIs prepared; undefined (said on stderr) when it no longer checks out. */
async function reloadConfig(file: string): Promise<PreparedApi[] | undefined> {
  try {
    const command = parseCommand(process.argv.slice(2), process.env);
    if (command.kind !== 'serve') return undefined;
    const apis = await prepared(command.apis, true);
    const clash = toolNameClash(apis, command.config.tools);
    if (clash !== undefined) throw new ConfigError(clash);
    log(`graphql-mcp: ${file} reloaded: ${describe(apis)}`);
    return apis;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log(`graphql-mcp: ${file} changed but ${error.message}; the previous configuration stays`);
    return undefined;
  }
}

/** A tool --oauthToolScopes names that this server does not offer (a typo would leave a tool unprotected). */
function unknownScopedTool(apis: readonly PreparedApi[]): string | undefined {
  const { config } = apis[0]!;
  const known = new Set<string>([...config.tools, ...operationTools(apis).map(([name]) => name)]);
  return [...(config.http.oauth?.toolScopes.keys() ?? [])].find((name) => !known.has(name));
}

/** The APIs served, for the start-up line: names, endpoints, header names (never values), policies. */
function describe(apis: readonly PreparedApi[]): string {
  const first = apis[0]!.config;
  const oauth = first.http.oauth !== undefined ? `, OAuth tokens of ${first.http.oauth.issuer.origin}` : '';
  return apis.map(({ config }) => describeApi(config, apis.length > 1)).join('; ') + oauth;
}

function describeApi(config: Config, named: boolean): string {
  const headers = config.headers.size > 0 ? `, headers ${config.headers.names().join(', ')}` : '';
  const readOnly = config.readOnly ? ', read-only' : `, mutations: ${config.mutations}`;
  const schema = config.schemaFile !== undefined ? `, schema from ${config.schemaFile}` : '';
  return `${named ? `${config.api}: ` : ''}${describeEndpoint(config.endpoint)}${headers}${readOnly}${schema}`;
}

main().catch((error: unknown) => {
  log(`graphql-mcp: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
