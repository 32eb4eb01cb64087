import type { Config } from './config.js';
import { describeTools } from './tools/catalog.js';

/**
 * The MCP server's answers to initialize and tools/list as the SDK gives them, recorded by the build
 * (engine.ts `recordStartup`, written to dist/startup.json): the stdio start-up answers from this record
 * while the SDK is not loaded yet. Only the tool descriptions depend on more of the configuration than
 * --readOnly; they come from the same catalog the registrations use.
 */
export interface StartupRecord {
  /** The protocol versions the SDK supports, the latest first. */
  readonly protocolVersions: readonly string[];
  /** The initialize result, but for the protocol version, which depends on the client's. */
  readonly initialize: { readonly [key: string]: unknown };
  /** tools/list results for the default configuration and for --readOnly. */
  readonly tools: { readonly default: readonly Tool[]; readonly readOnly: readonly Tool[] };
}

interface Tool {
  readonly name: string;
  readonly description?: string;
  readonly [key: string]: unknown;
}

/** The initialize result, negotiating the version as the SDK does: the client's if supported, else the latest. */
export function initializeResult(record: StartupRecord, requested: string): object {
  const supported = record.protocolVersions.includes(requested);
  return { protocolVersion: supported ? requested : record.protocolVersions[0], ...record.initialize };
}

export function toolsListResult(record: StartupRecord, config: Config): object {
  const descriptions: Record<string, string> = describeTools(config);
  const tools = config.readOnly ? record.tools.readOnly : record.tools.default;
  return {
    tools: tools.map((tool) => ({ ...tool, description: descriptions[tool.name] ?? tool.description })),
  };
}
