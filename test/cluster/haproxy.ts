// A real HAProxy (Debian's haproxy package) in front of the replicas, configured by the HAProxy block of
// docs/remote.md as written, with only its addresses replaced: its listener (`bind`) on a free port of
// 127.0.0.1, its replicas (`server`) on the replicas' ports, its admin socket (`stats socket`) in a temporary
// directory. It runs in the foreground (-db); the admin socket tells which replicas it considers up.
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { documentedBlock, replicaLines, substitute } from './documented.ts';
import {
  accepts,
  missingProgram,
  onFreePort,
  runToEnd,
  sleep,
  startChild,
  temporaryDirectory,
  type Child,
} from './processes.ts';

/** A bound on waiting for HAProxy to serve, generous for a loaded machine: it usually takes milliseconds. */
const START_TIMEOUT_MS = 20_000;

/** Why HAProxy cannot run here, or undefined when it can. */
export const HAPROXY_MISSING = missingProgram('haproxy', 'haproxy');

/** The addresses of a running proxy. */
export interface ProxyAddresses {
  /** The port of its listener on 127.0.0.1. */
  readonly port: number;
  /** The path of its admin socket. */
  readonly socket: string;
  /** The replicas' ports on 127.0.0.1, in order: server `r<index>`. */
  readonly backends: readonly number[];
}

/** docs/remote.md's HAProxy block with these addresses, and nothing else changed. */
export function haproxyConfig(addresses: ProxyAddresses, block = documentedBlock('haproxy')): string {
  return substitute(block, 'haproxy', [
    {
      what: '`bind` line (a listener)',
      line: /^(\s*bind\s+)(\S+)(.*)$/,
      replace: ([match]) => [`${match![1]}127.0.0.1:${addresses.port}${match![3]}`],
    },
    {
      what: '`stats socket` line',
      line: /^(\s*stats socket\s+)(\S+)(.*)$/,
      replace: ([match]) => [`${match![1]}${addresses.socket}${match![3]}`],
    },
    {
      what: '`server` line',
      line: /^(\s*server\s+)(\S+\s+)(\S+)(.*)$/,
      replace: (matches) => replicaLines('haproxy', matches, addresses.backends),
    },
  ]);
}

/** What `haproxy -c` says of a configuration: whether it is valid, and its output (warnings included). */
export function checkHaproxy(config: string): { readonly valid: boolean; readonly output: string } {
  const dir = temporaryDirectory('haproxy-check');
  try {
    const file = join(dir.path, 'haproxy.cfg');
    writeFileSync(file, config);
    const { ok, output } = runToEnd('haproxy', ['-c', '-f', file]);
    return { valid: ok, output };
  } finally {
    dir.remove();
  }
}

/** Options of the proxy. */
export interface ProxyOptions {
  /** The replicas' ports on 127.0.0.1, in order: server `r<index>`. */
  readonly backends: readonly number[];
  /**
   * Changes the configuration before it runs: the bench takes `option http-no-delay` out to measure what it
   * is for. The tests leave the documented configuration as it is.
   */
  readonly edit?: (config: string) => string;
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

/**
 * Starts HAProxy in front of `options.backends` and waits until it serves: its listener accepts connections
 * and its admin socket answers (HAProxy binds them one after the other, in no promised order).
 */
export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const dir = temporaryDirectory('haproxy');
  const socket = join(dir.path, 'admin.sock');
  const file = join(dir.path, 'haproxy.cfg');
  try {
    return await onFreePort(async (port) => {
      const documented = haproxyConfig({ port, socket, backends: options.backends });
      const config = options.edit?.(documented) ?? documented;
      writeFileSync(file, config);
      const child = startChild('haproxy', 'haproxy', ['-f', file, '-db']);
      try {
        await serving(child, port, socket);
      } catch (error) {
        await child.stop();
        throw error;
      }
      return {
        origin: `http://127.0.0.1:${port}`,
        port,
        pid: child.pid,
        output: () => child.output(),
        states: async () => parseStates(await adminCommand(socket, 'show stat\n')),
        async stop() {
          await child.stop();
          dir.remove();
        },
      };
    });
  } catch (error) {
    dir.remove();
    throw error;
  }
}

/** Resolves once the listener accepts connections and the admin socket answers; rejects if HAProxy exits first. */
async function serving(child: Child, port: number, socket: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last: unknown;
  for (;;) {
    if (child.done()) throw new Error(`haproxy exited at start; it said:\n${child.output()}`);
    try {
      if ((await accepts(port)) && (await adminCommand(socket, 'show info\n')).includes('Pid:')) return;
    } catch (error) {
      last = error; // the admin socket is not bound yet
    }
    if (Date.now() > deadline) {
      throw new Error(
        `haproxy did not serve within ${START_TIMEOUT_MS} ms (${String(last)}); it said:\n${child.output()}`,
      );
    }
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

/** The status of each replica (`r<index>`), from `show stat` (CSV). */
function parseStates(csv: string): Record<string, string> {
  const [header, ...rows] = csv.trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const server = columns.indexOf('svname');
  const status = columns.indexOf('status');
  const states: Record<string, string> = {};
  for (const row of rows) {
    const cells = row.split(',');
    const name = cells[server] ?? '';
    if (/^r\d+$/.test(name)) states[name] = (cells[status] ?? '').split(' ')[0]!;
  }
  return states;
}
