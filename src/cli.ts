#!/usr/bin/env node
// The bin: loads the configuration (config/), prepares what serving needs (startup/), then serves MCP on stdio or,
// in remote mode, over Streamable HTTP (transports/). Fatal problems go to stderr with an exit code; stdout
// carries only the protocol.
import { loadConfig, withoutEnvironmentValues } from './config/load.js';
import { usage } from './config/options.js';
import { ConfigError } from './config/parsers.js';
import { describeStart } from './startup/describe.js';
import { openStore } from './store/open.js';
import { startTelemetry } from './telemetry/telemetry.js';
import { readPrompts, start } from './startup/start.js';
import { serveOnStdio } from './transports/stdio.js';
import { log } from './common/log.js';
import { VERSION } from './common/version.js';

/** How long the last spans and metrics may take to leave at shutdown. */
const TELEMETRY_FLUSH_MS = 1_500;

async function main(): Promise<void> {
  // The inputs of every load, at start-up and on each reload of the config file.
  const argv = process.argv.slice(2);
  const env = process.env;
  const loaded = attempt(() => loadConfig(argv, env), []);
  // --help and --version print to stdout and exit: no protocol session runs in these two cases.
  if (loaded.kind === 'help') return void process.stdout.write(`${usage()}\n`);
  if (loaded.kind === 'version') return void process.stdout.write(`${VERSION}\n`);
  for (const warning of loaded.warnings) log(`graphql-mcp: ${warning}`);
  const { server, apis } = loaded;
  // OpenTelemetry, when the OTEL_* variables ask for it: loaded only then.
  const telemetry = await startTelemetry(process.env, {
    version: VERSION,
    documents: server.traceDocuments,
    log,
  });
  for (const warning of telemetry.warnings) log(`graphql-mcp: ${warning}`);
  const stdio = server.transport === 'stdio';
  // Read first, once: a bad prompt file stops the start before any introspection request.
  const prompts = attempt(() => readPrompts(server), loaded.fromEnvironment);
  const started = await start(server, apis, stdio).catch((error) => fail(error, loaded.fromEnvironment));
  for (const note of started.notes) log(`graphql-mcp: ${note}`);

  // Questions, answers and single-use marks: in memory, or in the Redis the replicas share (--store).
  const store = await openStore(server.http.store);
  const serving = { settings: server, started, prompts, store, telemetry: telemetry.telemetry };
  const reloadConfig = server.configFile === undefined ? undefined : () => reload(argv, env);
  // Remote mode's HTTP stack loads only in remote mode.
  const running = stdio
    ? serveOnStdio(serving, reloadConfig)
    : await (await import('./transports/http.js')).serveHttp(serving, log);
  log(`graphql-mcp ${VERSION}: serving ${describeStart(server, apis)} ${running.description}`);
  // The one way out: the client closing stdin, or a signal (a process manager or an orchestrator stopping a
  // replica). What is in flight finishes, the store closes, telemetry leaves, then the process exits; a close
  // that hangs does not keep it alive.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const flushMs = telemetry.telemetry === undefined ? 0 : TELEMETRY_FLUSH_MS;
    setTimeout(() => process.exit(0), running.graceMs + flushMs + 500).unref();
    void running
      .shutdown()
      .then(() => Promise.all([store.close(), telemetry.telemetry?.shutdown(TELEMETRY_FLUSH_MS)]))
      .finally(() => process.exit(0));
  };
  void running.ended?.then(stop);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** The configuration loaded and prepared again, as at start-up (a changed config file). */
async function reload(argv: readonly string[], env: NodeJS.ProcessEnv) {
  const loaded = loadConfig(argv, env);
  if (loaded.kind !== 'serve') throw new ConfigError('the command line no longer serves');
  try {
    return await start(loaded.server, loaded.apis, true);
  } catch (error) {
    throw error instanceof ConfigError ? withoutEnvironmentValues(error, loaded.fromEnvironment) : error;
  }
}

/** A bad start: one line on stderr (no value taken from the environment in it), exit code 2. */
function fail(error: unknown, fromEnvironment: readonly string[]): never {
  if (!(error instanceof ConfigError)) throw error;
  log(`graphql-mcp: ${withoutEnvironmentValues(error, fromEnvironment).message}`);
  process.exit(2);
}

function attempt<T>(run: () => T, fromEnvironment: readonly string[]): T {
  try {
    return run();
  } catch (error) {
    return fail(error, fromEnvironment);
  }
}

main().catch((error: unknown) => {
  log(`graphql-mcp: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
