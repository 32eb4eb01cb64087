// A real HAProxy (Debian's haproxy package) in front of the replicas, configured as docs/remote.md asks of a load
// balancer for remote mode: round robin with no stickiness (every request balanced on its own, whatever
// connection it came on), health checks on GET /health, and idle timeouts above the keep-alive comments of a
// stream that waits for a person's answer. It runs in the foreground (-db), on 127.0.0.1, from a configuration
// file in a temporary directory, with an admin socket there that tells which servers it considers up.
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort, missingProgram, sleep, startChild, temporaryDirectory, type Child } from './processes.ts';

/** Why HAProxy cannot run here, or undefined when it can. */
export const HAPROXY_MISSING = missingProgram('haproxy', 'haproxy');

/** Options of the proxy. */
export interface ProxyOptions {
  /** The replicas' ports on 127.0.0.1, in order: server `r<index>`. */
  readonly backends: readonly number[];
  /**
   * How long a connection may stay idle, each way (`timeout client`, `timeout server`, `timeout tunnel`): a
   * stream waiting for an answer must send something (its keep-alive comments) more often than this.
   * @default 60_000
   */
  readonly idleTimeoutMs?: number;
  /**
   * Milliseconds between two health checks of a replica; one failed check takes it out, one good check puts it
   * back (fast, for tests: a killed replica leaves the rotation within about this long).
   * @default 500
   */
  readonly checkIntervalMs?: number;
}

/** A running HAProxy. */
export interface Proxy {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly port: number;
  readonly pid: number;
  /** What it says on stdout and stderr. */
  output(): string;
  /** The state HAProxy gives each replica now, by server name (`r0`…): UP, DOWN, MAINT… */
  states(): Promise<Record<string, string>>;
  /** Stops it by PID and removes its directory. */
  stop(): Promise<void>;
}

/** The configuration: every directive is what a deployment in front of remote mode needs, or says why not. */
export function proxyConfig(port: number, socket: string, options: ProxyOptions): string {
  const idle = `${options.idleTimeoutMs ?? 60_000}ms`;
  const inter = `${options.checkIntervalMs ?? 500}ms`;
  return [
    'global',
    `  stats socket ${socket} mode 600 level admin`,
    '  maxconn 1024',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    // Idle limits, both ways: a tools/call's SSE stream may wait up to --confirmTimeout for the person, sending a
    // keep-alive comment every --keepAlive seconds, which must come within these.
    `  timeout client ${idle}`,
    `  timeout server ${idle}`,
    // For connections switched to tunnel mode (an upgrade, CONNECT): remote mode has none, but if a proxy in front
    // tunnelled, this would be the idle limit that applies to the stream.
    `  timeout tunnel ${idle}`,
    '  timeout http-request 10s',
    '  timeout http-keep-alive 10s',
    // A replica that refuses the connection (killed) is retried on another: only connection failures are
    // retried (HAProxy's default retry-on), so no request that reached a replica is ever sent twice.
    '  retries 2',
    '  option redispatch 1',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    // Every request on its own (HAProxy balances each request of a keep-alive connection): no stickiness.
    '  balance roundrobin',
    '  option httpchk GET /health',
    '  http-check expect status 200',
    `  default-server inter ${inter} fall 1 rise 1`,
    ...options.backends.map((backend, index) => `  server r${index} 127.0.0.1:${backend} check`),
    '',
  ].join('\n');
}

/** Starts HAProxy in front of `options.backends` and waits until it accepts connections. */
export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const port = await freePort();
  const dir = temporaryDirectory('haproxy');
  const socket = join(dir.path, 'admin.sock');
  const config = join(dir.path, 'haproxy.cfg');
  writeFileSync(config, proxyConfig(port, socket, options));
  let child: Child | undefined;
  try {
    child = startChild('haproxy', 'haproxy', ['-f', config, '-db']);
    await listening(port, child);
  } catch (error) {
    await child?.stop();
    dir.remove();
    throw error;
  }
  const running = child;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    pid: running.pid,
    output: () => running.output(),
    states: async () => parseStates(await adminCommand(socket, 'show stat\n')),
    async stop() {
      await running.stop();
      dir.remove();
    },
  };
}

/** Resolves once something accepts TCP connections on the port; rejects when the proxy exits first or after 5 s. */
async function listening(port: number, child: Child): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    if (child.done()) throw new Error(`haproxy exited at start; it said:\n${child.output()}`);
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    if (Date.now() > deadline)
      throw new Error(`haproxy did not listen within 5 s; it said:\n${child.output()}`);
    await sleep(25);
  }
}

/** Sends one command to HAProxy's admin socket and reads its whole answer. */
function adminCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = connect(socket);
    let answer = '';
    connection.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    connection.once('error', reject);
    connection.once('end', () => resolve(answer));
    connection.write(command);
  });
}

/** The status of each server of the replicas' backend, from `show stat` (CSV). */
function parseStates(csv: string): Record<string, string> {
  const [header, ...rows] = csv.trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const proxy = columns.indexOf('pxname');
  const server = columns.indexOf('svname');
  const status = columns.indexOf('status');
  const states: Record<string, string> = {};
  for (const row of rows) {
    const cells = row.split(',');
    const name = cells[server] ?? '';
    if (cells[proxy] === 'replicas' && /^r\d+$/.test(name))
      states[name] = (cells[status] ?? '').split(' ')[0]!;
  }
  return states;
}
