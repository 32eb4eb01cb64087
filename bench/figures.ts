// What one bench run measures, by subject name (bench/subjects.ts), as bench/run.ts collects it and
// bench/tables.ts reports it.

/** The entrants of the call measurements that are not servers under test. */
export const DIRECT = 'direct POST';
export const PING = 'MCP ping';

export interface ColdStart {
  /** One figure a round, as every list below: `node -e ""` on the same node. */
  bareNodeMs: number[];
  initializeMs: Record<string, number[]>;
  toolsListMs: Record<string, number[]>;
}

export interface Memory {
  startRssKb: number;
  /** After the warm-up and the sequential calls. */
  sequentialRssKb: number;
  sequentialCalls: number;
  /** After all calls. */
  rssKb: number;
  peakKb: number;
  calls: number;
  pid: number;
  rootPid: number;
}

export interface Load {
  /** Per-call ms, by entrant (the subjects, DIRECT, PING). */
  latencyMs: Record<string, number[]>;
  /** Calls at the set concurrency, by entrant; CPU time of the server process over them (not for DIRECT). */
  throughput: Record<string, { calls: number; ms: number; cpuMs: number }>;
  memory: Record<string, Memory>;
}

export interface Introspection {
  /** The GitHub schema's load and build in this process, ms. */
  loadMs: number;
  /** A direct POST of graphql-js's introspection query: the endpoint's share of a first introspection. */
  directMs: number[];
  firstMs: Record<string, number[]>;
  repeatedMs: Record<string, number[]>;
  /** The server's RSS after its repeats, kB: the schema is cached, and large responses leave malloc larger. */
  rssKb: Record<string, number[]>;
  /** Characters of text the tool returned. */
  chars: Record<string, number>;
}
