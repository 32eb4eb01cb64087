// A real nginx (Debian's nginx package) in front of the replicas, configured by the nginx block of docs/remote.md
// as written, with only its addresses replaced: its listener (`listen`) on a free port of 127.0.0.1 and its
// replicas (the upstream's `server` lines) on the replicas' ports. The block is what goes in conf.d, read inside
// `http { }`: around it is the least of a main configuration that runs as any user in a temporary directory, in
// the foreground and in one process (master_process off), so that a stop by PID stops all of it.
import { writeFileSync } from 'node:fs';
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

/** Why nginx cannot run here, or undefined when it can. */
export const NGINX_MISSING = missingProgram('nginx', 'nginx');

/** A bound on waiting for nginx to listen, generous for a loaded machine: it usually takes milliseconds. */
const START_TIMEOUT_MS = 20_000;

/** docs/remote.md's nginx block with these addresses, and nothing else changed. */
export function nginxBlock(
  addresses: { readonly port: number; readonly backends: readonly number[] },
  block = documentedBlock('nginx'),
): string {
  return substitute(block, 'nginx', [
    {
      what: '`listen` line (a listener)',
      line: /^(\s*listen\s+)([^\s;]+)(.*)$/,
      replace: ([match]) => [`${match![1]}127.0.0.1:${addresses.port}${match![3]}`],
    },
    {
      what: 'upstream `server` line',
      line: /^(\s*server\s+)()([^\s;{]+:\d+)(.*)$/,
      replace: (matches) => replicaLines('nginx', matches, addresses.backends),
    },
  ]);
}

/** A main configuration holding `block` in its `http { }`, with every path in `dir`. */
function mainConfig(dir: string, block: string): string {
  return [
    'daemon off;',
    'master_process off;',
    `pid ${dir}/nginx.pid;`,
    'error_log stderr notice;',
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `  ${kind}_temp_path ${dir}/${kind};`,
    ),
    block,
    '}',
    '',
  ].join('\n');
}

/** What `nginx -t` says of a block in conf.d: whether it is valid, and its output (warnings included). */
export function checkNginx(block: string): { readonly valid: boolean; readonly output: string } {
  const dir = temporaryDirectory('nginx-check');
  try {
    const file = join(dir.path, 'nginx.conf');
    writeFileSync(file, mainConfig(dir.path, block));
    const { ok, output } = runToEnd('nginx', ['-t', '-p', `${dir.path}/`, '-c', file, '-e', 'stderr']);
    return { valid: ok, output };
  } finally {
    dir.remove();
  }
}

/** A running nginx. */
export interface Nginx {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly pid: number;
  /** What it says on stderr. */
  output(): string;
  /** Stops it by PID and removes its directory. */
  stop(): Promise<void>;
}

/** Starts nginx in front of the replicas on `backends` and waits until it accepts connections. */
export async function startNginx(backends: readonly number[]): Promise<Nginx> {
  const dir = temporaryDirectory('nginx');
  const file = join(dir.path, 'nginx.conf');
  try {
    return await onFreePort(async (port) => {
      writeFileSync(file, mainConfig(dir.path, nginxBlock({ port, backends })));
      const child = startChild('nginx', 'nginx', ['-p', `${dir.path}/`, '-c', file, '-e', 'stderr']);
      try {
        await listening(child, port);
      } catch (error) {
        await child.stop();
        throw error;
      }
      return {
        origin: `http://127.0.0.1:${port}`,
        pid: child.pid,
        output: () => child.output(),
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

/** Resolves once nginx accepts connections on the port; rejects if it exits first. */
async function listening(child: Child, port: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.done()) throw new Error(`nginx exited at start; it said:\n${child.output()}`);
    if (await accepts(port)) return;
    if (Date.now() > deadline) {
      throw new Error(`nginx did not listen within ${START_TIMEOUT_MS} ms; it said:\n${child.output()}`);
    }
    await sleep(25);
  }
}
