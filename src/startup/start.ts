// Everything serving needs, from the loaded configuration: each API's schema file and operation tools read
// (prepare.ts) and the checks that need them all (tool names unique, the tools --oauthToolScopes names known);
// the operator's prompts are read once, at start-up (readPrompts). A problem is a ConfigError, like a bad option: one line, exit 2 (or, on a
// reload, the previous configuration stays).
import { ConfigError } from '../config/parsers.js';
import type { ApiConfig, ServerConfig } from '../config/types.js';
import { Live } from '../common/live.js';
import type { OperationSet } from '../operations/load.js';
import { BUILT_IN_PROMPTS } from '../prompts/built-in.js';
import { loadPromptFiles, PromptsError } from '../prompts/prompt-files.js';
import type { PromptDefinition } from '../prompts/prompt.js';
import { secretsOf } from '../redaction/redactor.js';
import { operationTools, toolNameClash, type Api } from '../api/api.js';

/** What serving needs: the APIs as served, and what reads each API's operations again. */
export interface Started {
  readonly apis: readonly Api[];
  /** Each API with operation files, and what reads them again (stdio mode follows them). */
  readonly reloads: ReadonlyMap<Api, () => OperationSet>;
  /** Lines for stderr: what was left out (mutations under --readOnly, definitions a schema file repeats). */
  readonly notes: readonly string[];
}

/** Prepares the APIs (at start-up and on each reload); `watched`: whether the operation files will be followed. */
export async function start(
  server: ServerConfig,
  configs: readonly ApiConfig[],
  watched: boolean,
): Promise<Started> {
  const secrets = secretsOf(configs.map((config) => ({ config })));
  const apis: Api[] = [];
  const reloads = new Map<Api, () => OperationSet>();
  const notes: string[] = [];
  for (const config of configs) {
    if (config.schemaFile === undefined && config.operations.length === 0) {
      apis.push({ config });
      continue;
    }
    const { prepare } = await import('./prepare.js');
    let ready;
    try {
      ready = await prepare(config, secrets);
    } catch (error) {
      // Several APIs: say whose files these are.
      if (!(error instanceof ConfigError) || configs.length === 1) throw error;
      throw new ConfigError(`apis.${config.name}: ${error.message}`);
    }
    notes.push(
      ...ready.warnings.map((line) => (configs.length === 1 ? line : `apis.${config.name}: ${line}`)),
    );
    if (ready.operations === undefined) {
      apis.push(ready.api);
      continue;
    }
    const { set, reload } = ready.operations;
    notes.push(...set.skipped);
    // Only stdio watches the files: a remote deployment changes its tools by a new release of its replicas.
    const api: Api = { ...ready.api, operations: new Live(set, watched) };
    apis.push(api);
    reloads.set(api, reload);
  }
  checkTools(server, apis);
  return { apis, reloads, notes };
}

/** Tool names unique across the whole set, and every tool --oauthToolScopes names one of this server's. */
function checkTools(server: ServerConfig, apis: readonly Api[]): void {
  const clash = toolNameClash(apis, server.tools);
  if (clash !== undefined) throw new ConfigError(`${clash}; rename one of them`);
  // A typo would leave a tool unprotected.
  const known = new Set<string>([...server.tools, ...operationTools(apis).map(([name]) => name)]);
  const unknown = [...(server.http.oauth?.toolScopes.keys() ?? [])].find((name) => !known.has(name));
  if (unknown !== undefined) {
    throw new ConfigError(`--oauthToolScopes names ${unknown}, which is not a tool of this server`);
  }
}

/** The prompt files --prompts names, read once; a problem with one stops the start like a bad option. */
export function readPrompts(server: ServerConfig): PromptDefinition[] {
  if (server.prompts.length === 0) return [];
  try {
    return loadPromptFiles(server.prompts, BUILT_IN_PROMPTS);
  } catch (error) {
    if (!(error instanceof PromptsError)) throw error;
    throw new ConfigError(`--prompts ${error.message}`);
  }
}
