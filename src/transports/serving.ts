import type { ServerConfig } from '../config/types.js';
import type { PromptDefinition } from '../prompts/prompt.js';
import type { Started } from '../startup/start.js';
import type { Store } from '../store/store.js';
import type { Telemetry } from '../telemetry/telemetry.js';

/** What either transport serves: the settings, what start-up prepared, and what the bin opened for them. */
export interface Serving {
  readonly settings: ServerConfig;
  readonly started: Started;
  readonly prompts: readonly PromptDefinition[];
  /** Questions, answers and single-use marks: in memory, or the Redis replicas share. */
  readonly store: Store;
  /** OpenTelemetry when the OTEL_* variables turned it on: the transport wraps its MCP servers with it. */
  readonly telemetry: Telemetry | undefined;
}

/** A transport serving. */
export interface Running {
  /** Where it serves, for the start-up line: `on stdio`, `at http://…/mcp`. */
  readonly description: string;
  /** Resolves when the client went away for good (stdio's closing stdin); remote mode serves until stopped. */
  readonly ended?: Promise<void>;
  /** How long calls in flight may take to finish once it stops. */
  readonly graceMs: number;
  /** Stops accepting, lets calls in flight finish (within graceMs), then resolves. */
  shutdown(): Promise<void>;
}
