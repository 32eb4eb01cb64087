// A remote-mode deployment on one machine, as a team runs it: one redis-server, N replicas of the built server
// (dist/cli.cjs in remote mode) and HAProxy in front of them (round robin, no stickiness), all on 127.0.0.1, on
// free ports, each with a temporary directory of its own. The test chooses the replicas' arguments; the harness
// records which replica served each request (their JSON request logs), kills a replica on demand (SIGKILL, as a
// crash), lets the test stop and start Redis, and stops everything it started by PID, also when a test fails.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connectHttp, spawnHttpMcp, type HttpMcpClient, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import { CLI } from '../fixtures/mcp.ts';
import { HAPROXY_MISSING, startProxy, type Proxy } from './haproxy.ts';
import { freePort, killOnExit } from './processes.ts';
import { REDIS_MISSING, startRedis, type RedisServer } from './redis.ts';

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
  /**
   * HAProxy's idle timeouts (client, server, tunnel): above the replicas' --keepAlive.
   * @default 60_000
   */
  readonly proxyIdleTimeoutMs?: number;
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
  /** Resolves with the requests served after `since` once there are at least `count` of them (5 s at most). */
  waitForServed(count: number, since?: Mark, filter?: (served: Served) => boolean): Promise<Served[]>;
  /** Connects an SDK client through the proxy. */
  connect(headers?: Record<string, string>): Promise<HttpMcpClient>;
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
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const processes: Array<HttpMcpProcess | undefined> = ports.map(() => undefined);
    /** Every process started, restarted ones too, with its replica's index. */
    const everyProcess: Array<{ readonly index: number; readonly process: HttpMcpProcess }> = [];
    const exited = new Set<HttpMcpProcess>();
    const spawnReplica = async (index: number) => {
      const context = { index, redisUrl: redis.url, stateKey };
      const replica = await spawnHttpMcp(
        ['--transport=http', `--port=${ports[index]}`, ...options.args(context)],
        options.env?.(context) ?? {},
      );
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
    const proxy = await startProxy({ backends: ports, idleTimeoutMs: options.proxyIdleTimeoutMs });
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
      await waitFor(`HAProxy sees r${index} UP`, async () => (await proxyState(index)) === 'UP');
    }

    return {
      url: `${proxy.origin}/mcp`,
      redis,
      proxy,
      replicas: ports.map((port, index) => ({
        index,
        port,
        process: () => current(index),
        alive: () => alive(index),
      })),
      mark: () => new Map(everyProcess.map(({ process }) => [process, process.requestLog().length])),
      served,
      async waitForServed(count, since, filter = () => true) {
        let found: Served[] = [];
        await waitFor(`${count} requests served`, async () => {
          found = served(since).filter(filter);
          return found.length >= count;
        });
        return found;
      },
      connect: (headers) => connectHttp(`${proxy.origin}/mcp`, headers),
      async kill(index) {
        const replica = current(index);
        replica.signal('SIGKILL');
        await replica.exited;
        await waitFor(`HAProxy takes r${index} out`, async () => (await proxyState(index)) !== 'UP');
      },
      async restart(index) {
        if (alive(index)) throw new Error(`replica ${index} still runs: kill it first`);
        await spawnReplica(index);
        await waitFor(`HAProxy takes r${index} back`, async () => (await proxyState(index)) === 'UP');
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Polls an asynchronous condition every 50 ms, for at most 5 s. */
async function waitFor(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
