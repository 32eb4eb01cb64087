import type { McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Api } from '../api/api.js';
import { Live } from '../common/live.js';
import { log } from '../common/log.js';
import { createServer } from '../server/create-server.js';
import { follow } from '../startup/reload.js';
import type { Started } from '../startup/start.js';
import type { Running, Serving } from './serving.js';

/**
 * One client over stdin/stdout, in whichever protocol era it opens with (the SDK's serveStdio), until it closes
 * stdin (`ended`) or the bin stops it. The operation files are followed; so is the config file, whose every
 * change is checked and applied whole (`reloadConfig`).
 */
export function serveOnStdio(serving: Serving, reloadConfig: (() => Promise<Started>) | undefined): Running {
  const { settings, started, store, prompts, telemetry } = serving;
  const live = new Live<readonly Api[]>(started.apis, settings.configFile !== undefined);
  const factory: McpServerFactory = ({ era }) => createServer(live, settings, store, { era, prompts });
  // With telemetry on, each server's transport is traced: a span per request, the tool's spans under it.
  const session = serveStdio(telemetry?.traceServers(factory, 'pipe') ?? factory, {
    onerror: (error) => log(`graphql-mcp: ${error.message}`),
  });
  const unfollow = follow(settings, live, started, reloadConfig);
  // The client closing stdin ends the session.
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  return {
    description: 'on stdio',
    ended,
    graceMs: 0,
    shutdown: async () => {
      unfollow();
      await session.close();
    },
  };
}
