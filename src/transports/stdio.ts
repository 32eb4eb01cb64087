import type { McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerConfig } from '../config/types.js';
import { Live } from '../common/live.js';
import { log } from '../common/log.js';
import type { Api } from '../api/api.js';
import { createServer } from '../server/create-server.js';
import { follow } from '../startup/reload.js';
import type { Store } from '../store/store.js';
import { activeTelemetry } from '../telemetry/telemetry.js';
import type { PromptDefinition } from '../prompts/prompt.js';
import type { Started } from '../startup/start.js';

/** How long the last spans and metrics may take to leave when the client closes stdin. */
const TELEMETRY_FLUSH_MS = 1_500;

/**
 * One client over stdin/stdout, in whichever protocol era it opens with (the SDK's serveStdio), until it closes
 * stdin or a signal. The operation files are followed; so is the config file, whose every change is checked and
 * applied whole (`reloadConfig`).
 */
export function serveOnStdio(
  server: ServerConfig,
  started: Started,
  prompts: readonly PromptDefinition[],
  store: Store,
  reloadConfig: (() => Promise<Started>) | undefined,
): void {
  const live = new Live<readonly Api[]>(started.apis, server.configFile !== undefined);
  const factory: McpServerFactory = ({ era }) => createServer(live, server, store, { era, prompts });
  const telemetry = activeTelemetry();
  // With telemetry on, each server's transport is traced: a span per request, the tool's spans under it.
  const session = serveStdio(telemetry?.traceServers(factory, 'pipe') ?? factory, {
    onerror: (error) => log(`graphql-mcp: ${error.message}`),
  });
  const unfollow = follow(server, live, started, reloadConfig);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    unfollow();
    void session
      .close()
      .then(() => Promise.all([store.close(), telemetry?.shutdown(TELEMETRY_FLUSH_MS)]))
      .finally(() => process.exit(0));
    // A close that hangs must not keep the process alive (telemetry gets its deadline, and a little more).
    setTimeout(() => process.exit(0), telemetry === undefined ? 500 : TELEMETRY_FLUSH_MS + 500).unref();
  };
  // The client closing stdin ends the session; kept-alive connections to the endpoint must not keep us alive.
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
