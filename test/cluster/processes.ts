// What the cluster harness and the store tests share: free loopback ports, programs looked up on the PATH,
// temporary directories, and child processes that are always stopped by PID (SIGTERM, then SIGKILL), even when a
// test fails or the test process exits early.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why a program cannot be run (not on the PATH), or undefined when it can. */
export function missingProgram(program: string, debianPackage: string): string | undefined {
  const found = spawnSync(program, ['-v'], { stdio: 'ignore' });
  return found.error === undefined
    ? undefined
    : `${program} is not on the PATH (Debian package ${debianPackage}: apt-get install ${debianPackage})`;
}

/** Runs a program to its end: whether it exited with 0, and what it wrote (stdout, then stderr). */
export function runToEnd(program: string, args: readonly string[]): { ok: boolean; output: string } {
  const run = spawnSync(program, args, { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

/** A TCP port of 127.0.0.1 that nothing listens on (for programs that cannot take port 0 and say which). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Runs `start` on a free port, and again on another (three tries) when the port was taken between the asking and
 * the binding: a port found free is free only at that moment, on a machine shared with other tests. `start`
 * rejects with an error whose message holds the program's output, where "Address already in use" says so.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      const taken = error instanceof Error && /address already in use/i.test(error.message);
      if (!taken || attempt === 3) throw error;
    }
  }
}

/** Whether something accepts TCP connections on the port of 127.0.0.1 now. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Temporary directories not removed yet: removed when the test process exits. */
const directories = new Set<string>();

/** A fresh temporary directory, removed by `remove` (or when the test process exits). */
export function temporaryDirectory(name: string): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `graphql-mcp-${name}-`));
  directories.add(path);
  return {
    path,
    remove: () => {
      rmSync(path, { recursive: true, force: true });
      directories.delete(path);
    },
  };
}

/** A program started by a test: its output so far, its end, and a stop by PID. */
export interface Child {
  readonly pid: number;
  readonly name: string;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether it has exited. */
  done(): boolean;
  /** Sends a signal by PID, while it runs. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM (after SIGCONT, should it be stopped), then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when its output matches `pattern`; rejects when it exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

/** The PIDs of every child still running, killed when the test process exits, whatever the reason. */
const running = new Set<number>();
process.once('exit', () => {
  for (const pid of running) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  for (const path of directories) rmSync(path, { recursive: true, force: true });
});

/** Kills the process `pid` when the test process exits before it did; call the result once it has exited. */
export function killOnExit(pid: number): () => void {
  running.add(pid);
  return () => running.delete(pid);
}

/** Starts `program` with `args`; its output is kept for waitFor and for failure messages. */
export function startChild(
  name: string,
  program: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '' },
): Child {
  const child = spawn(program, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name} (${program}) could not be started`);
  const pid = child.pid;
  const exitedNow = killOnExit(pid);
  let output = '';
  const waiters = new Set<() => void>();
  const take = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      exitedNow();
      for (const wake of waiters) wake();
      resolve({ code, signal });
    }),
  );
  const done = () => child.exitCode !== null || child.signalCode !== null;
  const signal = (name: NodeJS.Signals) => {
    if (!done()) process.kill(pid, name);
  };
  return {
    pid,
    name,
    output: () => output,
    exited,
    done,
    signal,
    async stop(graceMs = 3_000) {
      if (done()) return;
      // A stopped process keeps SIGTERM pending until it runs again.
      signal('SIGCONT');
      signal('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
      const first = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (first === 'late') {
        signal('SIGKILL');
        await exited;
      }
    },
    waitFor(pattern, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) finish();
          else if (done())
            finish(new Error(`${name} exited before printing ${pattern}; it said:\n${output}`));
        };
        const finish = (error?: Error) => {
          waiters.delete(check);
          clearTimeout(timer);
          if (error === undefined) resolve();
          else reject(error);
        };
        const timer = setTimeout(
          () =>
            finish(new Error(`${name} did not print ${pattern} within ${timeoutMs} ms; it said:\n${output}`)),
          timeoutMs,
        );
        waiters.add(check);
        check();
      });
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `condition` every 25 ms until it holds; rejects with `what` (and the condition's last error, when it
 * threw) after `timeoutMs`. A condition that throws has not held yet: what it asks may not be up yet. The deadline
 * is a bound on waiting, not a measure of speed: generous, so that a loaded machine only makes it slower.
 */
export async function eventually(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError === undefined ? '' : ` (last: ${String(lastError)})`;
      throw new Error(`${what}: not within ${timeoutMs} ms${why}`, { cause: lastError });
    }
    await sleep(25);
  }
}
