// A real redis-server (Debian's redis-server package) for the store tests and the cluster harness: on 127.0.0.1, a
// free port, nothing saved to disk, its own temporary directory; stopped, frozen and started again on demand, by
// PID.
import { missingProgram, onFreePort, startChild, temporaryDirectory, type Child } from './processes.ts';

/** Why the Redis tests cannot run here, or undefined when they can. */
export const REDIS_MISSING = missingProgram('redis-server', 'redis-server');

/** Options of a test Redis. */
export interface RedisOptions {
  /** More configuration, as redis-server arguments (e.g. an ACL user). */
  readonly extraArgs?: readonly string[];
  /** TLS only, with this certificate and key (PEM files): the URL is then rediss://. */
  readonly tls?: { readonly cert: string; readonly key: string };
}

/** A running redis-server. */
export interface RedisServer {
  readonly port: number;
  /** redis://127.0.0.1:PORT/0 (rediss:// with TLS). */
  readonly url: string;
  /** The PID of the process running now. */
  pid(): number;
  /** Whether a process serves now (started and not stopped). */
  running(): boolean;
  /** Stops it by PID (SIGTERM, then SIGKILL): connections drop at once. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** SIGSTOP: the connections stay open, and nothing is answered. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

/** Starts a redis-server on a free port of 127.0.0.1 and waits until it accepts connections. */
export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const dir = temporaryDirectory('redis');
  const args = (port: number) => [
    ...(options.tls === undefined
      ? ['--port', String(port)]
      : [
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cert-file',
          options.tls.cert,
          '--tls-key-file',
          options.tls.key,
          '--tls-auth-clients',
          'no',
        ]),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir.path,
    '--daemonize',
    'no',
    ...(options.extraArgs ?? []),
  ];
  let child: Child | undefined;
  const startOn = async (port: number) => {
    const started = startChild('redis-server', 'redis-server', args(port));
    child = started;
    try {
      await started.waitFor(/Ready to accept connections/, 20_000);
    } catch (error) {
      await started.stop();
      throw error;
    }
    return port;
  };
  let port: number;
  try {
    port = await onFreePort(startOn);
  } catch (error) {
    dir.remove();
    throw error;
  }
  const start = async () => void (await startOn(port));
  const current = () => {
    if (child === undefined || child.done()) throw new Error('redis-server is not running');
    return child;
  };
  const stop = async () => {
    await child?.stop();
  };
  return {
    port,
    url: `${options.tls === undefined ? 'redis' : 'rediss'}://127.0.0.1:${port}/0`,
    pid: () => current().pid,
    running: () => child !== undefined && !child.done(),
    stop,
    start,
    freeze: () => current().signal('SIGSTOP'),
    thaw: () => current().signal('SIGCONT'),
    async dispose() {
      await stop();
      dir.remove();
    },
  };
}
