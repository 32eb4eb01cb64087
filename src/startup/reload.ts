// Stdio mode follows its files while it serves: each API's operation files, and the config file. A change is
// read with the same loader as at start-up and applied whole, or not at all: one that no longer checks out (or
// whose tool names would clash) leaves what is served as it was, and stderr says why.
import { ConfigError } from '../config/parsers.js';
import type { ServerConfig } from '../config/types.js';
import type { Live } from '../common/live.js';
import { log } from '../common/log.js';
import type { OperationSet } from '../operations/load.js';
import { toolNameClash, type Api } from '../api/api.js';
import type { Started } from './start.js';
import { watchPaths } from './watch.js';

/**
 * Follows the operation files of `started` and, when given, the config file (`reloadConfig` reads it again and
 * prepares its APIs), replacing `live`'s APIs as they change; returns what stops following.
 */
export function follow(
  server: ServerConfig,
  live: Live<readonly Api[]>,
  started: Started,
  reloadConfig?: () => Promise<Started>,
): () => void {
  let unwatchOperations = watchOperations(server, live, started);
  const file = server.configFile;
  const unwatchConfig =
    file === undefined || reloadConfig === undefined
      ? undefined
      : watchPaths([file], () => {
          void reloadConfig().then(
            (next) => {
              unwatchOperations();
              unwatchOperations = watchOperations(server, live, next);
              live.replace(next.apis);
              for (const note of next.notes) log(`graphql-mcp: ${note}`);
              log(`graphql-mcp: ${file} reloaded: ${next.apis.map((api) => api.config.name).join(', ')}`);
            },
            (error: unknown) => {
              if (!(error instanceof ConfigError)) throw error;
              log(`graphql-mcp: ${file} changed but ${error.message}; the previous configuration stays`);
            },
          );
        });
  return () => {
    unwatchOperations();
    unwatchConfig?.();
  };
}

/** Watches each API's operation files; returns what stops watching them all. */
function watchOperations(server: ServerConfig, live: Live<readonly Api[]>, started: Started): () => void {
  const stops = [...started.reloads].map(([api, reload]) =>
    watchPaths(api.config.operations, () => reloadOperations(server, live, api, reload)),
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
  server: ServerConfig,
  live: Live<readonly Api[]>,
  api: Api,
  reload: () => OperationSet,
): void {
  const of = live.current.length > 1 ? ` of ${api.config.name}` : '';
  let set: OperationSet;
  try {
    set = reload();
  } catch (error) {
    log(
      `graphql-mcp: --operations${of} changed but ${error instanceof Error ? error.message : String(error)}; the previous tools stay`,
    );
    return;
  }
  const clash = toolNameClash(live.current, server.tools, (each) =>
    each === api ? set : each.operations?.current,
  );
  if (clash !== undefined) {
    log(`graphql-mcp: --operations${of} changed but ${clash}; the previous tools stay`);
    return;
  }
  for (const line of set.skipped) log(`graphql-mcp: ${line}`);
  api.operations!.replace(set);
  log(
    `graphql-mcp: --operations${of} reloaded: ${set.tools.map((tool) => tool.name).join(', ') || 'no tools'}`,
  );
}
