// A remote-mode deployment on one machine, as a team runs it: one redis-server, N replicas of the built server
// (dist/cli.cjs in remote mode) and HAProxy in front of them, configured as docs/remote.md says (round robin, no
// stickiness), all on 127.0.0.1, on free ports, each with a temporary directory of its own. It waits for what it
// uses (each program serving, HAProxy's admin socket, each replica UP) for as long as a loaded machine needs. The test chooses the replicas' arguments; the harness
// records which replica served each request (their JSON request logs), kills a replica on demand (SIGKILL, as a
// crash), lets the test stop and start Redis, and stops everything it started by PID, also when a test fails.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  connectHttp,
  rawRequest,
  spawnHttpMcp,
  type HttpMcpClient,
  type HttpMcpProcess,
} from '../fixtures/http-mcp.ts';
import { CLI } from '../fixtures/mcp.ts';
import { HAPROXY_MISSING, startProxy, type Proxy } from './haproxy.ts';
import { eventually, killOnExit } from './processes.ts';
import { REDIS_MISSING, startRedis, type RedisServer } from './redis.ts';

/** A bound on waiting for a replica to start, generous for a loaded machine: it usually takes 200 ms. */
const START_TIMEOUT_MS = 30_000;

/** Why the cluster tests cannot run here (a program missing, or no build), or undefined when they can. */
export const CLUSTER_MISSING =
  REDIS_MISSING ??
  HAPROXY_MISSING ??
  (existsSync(CLI) ? undefined : `${CLI} is missing: build it first (node scripts/build.mjs)`);

/** What a replica's arguments may depend on. */
export interface ReplicaContext {
  /** 0 to N-1. */
  readonly index: number;
  /** The cluster's Redis, e.g. redis://127.0.0.1:PORT/0 (for --store). */
  readonly redisUrl: string;
  /** A random key of 64 hex digits, the same for every replica of the cluster (for --stateKey). */
  readonly stateKey: string;
}

/** Options of a cluster. */
export interface ClusterOptions {
  /** @default 3 */
  readonly replicas?: number;
  /** A replica's arguments, after `--transport=http --port=<its port>` (the host is 127.0.0.1 by default). */
  readonly args: (replica: ReplicaContext) => readonly string[];
  /** A replica's environment, beside PATH. */
  readonly env?: (replica: ReplicaContext) => Record<string, string>;
}

/** One replica: its process while it runs. */
export interface Replica {
  readonly index: number;
  readonly port: number;
  /** The running process (the latest, after a restart). */
  process(): HttpMcpProcess;
  /** Whether it runs (not killed, not stopped). */
  alive(): boolean;
}

/** A request a replica served, from its request log. */
export interface Served {
  readonly replica: number;
  readonly entry: Record<string, unknown>;
}

/** How many request-log lines each replica process had written at a moment. */
export type Mark = ReadonlyMap<HttpMcpProcess, number>;

/** A running cluster. */
export interface Cluster {
  /** The MCP endpoint through the proxy: http://127.0.0.1:PORT/mcp */
  readonly url: string;
  readonly redis: RedisServer;
  readonly proxy: Proxy;
  readonly replicas: readonly Replica[];
  /** Where the request logs are now, to read what is served after it. */
  mark(): Mark;
  /**
   * The requests the replicas served (request-log lines, not audit lines), each with its replica: all of them, or
   * those after `since`. A line is written when its response has closed, so wait for the count you expect.
   */
  served(since?: Mark): Served[];
  /** Resolves with the requests served after `since` once there are at least `count` of them (20 s at most). */
  waitForServed(count: number, since?: Mark, filter?: (served: Served) => boolean): Promise<Served[]>;
  /** Connects an SDK client through the proxy. */
  connect(headers?: Record<string, string>): Promise<HttpMcpClient>;
  /** Resolves once every running replica's /health says the store is reachable (after Redis came back). */
  waitForStore(): Promise<void>;
  /** Kills a replica with SIGKILL (a crash: nothing is finished), and waits until HAProxy takes it out. */
  kill(replica: number): Promise<void>;
  /** Starts a stopped or killed replica again, on its port, and waits until HAProxy takes it back. */
  restart(replica: number): Promise<void>;
  /** Stops everything it started, by PID: the proxy, the replicas, Redis. Never rejects. */
  stop(): Promise<void>;
}

/** Starts Redis, the replicas (at once) and the proxy; stops what it started when any of them fails to start. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.replicas ?? 3;
  const stateKey = randomBytes(32).toString('hex');
  const started: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    const stops = started.splice(0).reverse();
    await Promise.allSettled(stops.map((stop) => stop()));
  };
  try {
    const redis = await startRedis();
    started.push(() => redis.dispose());
    // Each replica picks a free port itself at its first start (--port=0) and keeps it when restarted.
    const ports: Array<number | undefined> = Array.from({ length: count }, () => undefined);
    const processes: Array<HttpMcpProcess | undefined> = ports.map(() => undefined);
    /** Every process started, restarted ones too, with its replica's index. */
    const everyProcess: Array<{ readonly index: number; readonly process: HttpMcpProcess }> = [];
    const exited = new Set<HttpMcpProcess>();
    const spawnReplica = async (index: number) => {
      const context = { index, redisUrl: redis.url, stateKey };
      const replica = await spawnHttpMcp(
        ['--transport=http', `--port=${ports[index] ?? 0}`, ...options.args(context)],
        options.env?.(context) ?? {},
        START_TIMEOUT_MS,
      );
      ports[index] = replica.port;
      const exitedNow = killOnExit(replica.pid);
      void replica.exited.then(() => {
        exitedNow();
        exited.add(replica);
      });
      processes[index] = replica;
      everyProcess.push({ index, process: replica });
      started.push(() => replica.stop(3_000));
    };
    // Every start settled before going on, so that none is left running when another failed.
    const starts = await Promise.allSettled(ports.map((_, index) => spawnReplica(index)));
    const failed = starts.find((start) => start.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const backends = ports.map((port) => port!);
    const proxy = await startProxy({ backends });
    started.push(() => proxy.stop());

    const current = (index: number) => {
      const replica = processes[index];
      if (replica === undefined) throw new Error(`there is no replica ${index}`);
      return replica;
    };
    const alive = (index: number) => processes[index] !== undefined && !exited.has(processes[index]!);
    const served = (since?: Mark): Served[] =>
      everyProcess.flatMap(({ index, process }) =>
        process
          .requestLog()
          .slice(since?.get(process) ?? 0)
          .map((entry) => ({ replica: index, entry })),
      );
    const proxyState = async (index: number) => (await proxy.states())[`r${index}`];
    // All of them up before the first request: one replica behind would take no turn.
    for (let index = 0; index < count; index++) {
      await eventually(`HAProxy sees r${index} UP`, async () => (await proxyState(index)) === 'UP');
    }

    return {
      url: `${proxy.origin}/mcp`,
      redis,
      proxy,
      replicas: backends.map((port, index) => ({
        index,
        port,
        process: () => current(index),
        alive: () => alive(index),
      })),
      mark: () => new Map(everyProcess.map(({ process }) => [process, process.requestLog().length])),
      served,
      async waitForServed(count, since, filter = () => true) {
        let found: Served[] = [];
        await eventually(`${count} requests served`, () => {
          found = served(since).filter(filter);
          return found.length >= count;
        });
        return found;
      },
      connect: (headers) => connectHttp(`${proxy.origin}/mcp`, headers),
      async waitForStore() {
        const running = processes.filter((_, index) => alive(index)).map((replica) => replica!);
        await eventually('every replica reaches the store', async () => {
          const answers = await Promise.all(running.map((replica) => rawRequest(`${replica.origin}/health`)));
          return answers.every(
            ({ body }) => (JSON.parse(body) as { store?: { state?: string } }).store?.state === 'reachable',
          );
        });
      },
      async kill(index) {
        const replica = current(index);
        replica.signal('SIGKILL');
        await replica.exited;
        await eventually(`HAProxy takes r${index} out`, async () => (await proxyState(index)) !== 'UP');
      },
      async restart(index) {
        if (alive(index)) throw new Error(`replica ${index} still runs: kill it first`);
        await spawnReplica(index);
        await eventually(`HAProxy takes r${index} back`, async () => (await proxyState(index)) === 'UP');
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
