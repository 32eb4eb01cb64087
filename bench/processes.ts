// The MCP servers under test: spawned and driven by the SDK client over stdio, as an MCP host does.
// Every process the bench starts is tracked by PID, with the processes it starts in turn (a package
// runner such as npx starts the real server as a grandchild), so none outlives the bench.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';

/** How to start one server under test. */
export interface ServerCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Its working directory; the bench's when not given. */
  cwd?: string;
  /** The tool that runs a query; found from tools/list when not given. */
  queryTool?: string;
  /** The tool that introspects; found from tools/list when not given. */
  introspectTool?: string;
  /** The protocol era the client speaks: 2025's initialize (every host today), or 2026-07-28. */
  era?: 'legacy' | 'modern';
}

/** A running server with a connected client. */
export interface Session {
  /** The process spawned (a package runner, or the server itself). */
  readonly pid: number;
  /** Spawn → initialize answered, ms. */
  readonly initializeMs: number;
  /** Spawn → tools/list answered, ms. */
  readonly toolsListMs: number;
  /** Tool calls made so far. */
  calls: number;
  /** Runs the query tool; throws if the result is an error. */
  query(query: string): Promise<void>;
  /** Runs the introspection tool without arguments; returns the length of its text. */
  introspect(): Promise<number>;
  ping(): Promise<void>;
  /** The server process: the deepest process of the tree started, which is the server behind a runner. */
  serverPid(): number;
  close(): Promise<void>;
}

/** A process's identity: its PID and its start time, so that a reused PID is never signalled. */
interface ProcessId {
  pid: number;
  start: string;
}

const started = new Map<number, ProcessId>();

function stat(pid: number): { ppid: number; start: string; cpuMs: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after its closing one.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // utime and stime are in clock ticks, 100 a second.
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
    return { ppid: Number(fields[1]), start: fields[19]!, cpuMs };
  } catch {
    return null;
  }
}

/** The process and all its descendants, parents first. */
function processTree(root: number): ProcessId[] {
  const rootStat = stat(root);
  if (!rootStat) return [];
  const children = new Map<number, ProcessId[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const s = stat(pid);
    if (!s) continue;
    const list = children.get(s.ppid) ?? [];
    list.push({ pid, start: s.start });
    children.set(s.ppid, list);
  }
  const tree: ProcessId[] = [{ pid: root, start: rootStat.start }];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!.pid) ?? []));
  return tree;
}

function killIfSame(id: ProcessId): void {
  if (stat(id.pid)?.start !== id.start) return;
  try {
    process.kill(id.pid, 'SIGKILL');
  } catch {
    // Gone meanwhile.
  }
}

/** Records a process the bench started, for killAll. */
export function track(pid: number | undefined): void {
  const s = pid === undefined ? null : stat(pid);
  if (pid !== undefined && s) started.set(pid, { pid, start: s.start });
}

export function untrack(pid: number | undefined): void {
  if (pid !== undefined) started.delete(pid);
}

/** Kills every process the bench started that is still running, with its descendants. Synchronous, for exit. */
export function killAll(): void {
  for (const id of started.values()) {
    if (stat(id.pid)?.start !== id.start) continue;
    for (const member of processTree(id.pid).reverse()) killIfSame(member);
  }
  started.clear();
}

/** Resident memory of a process, from /proc/<pid>/status, in kB: now (VmRSS) and at its peak (VmHWM). */
export function memoryOf(pid: number): { rssKb: number; peakKb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), peakKb: field('VmHWM') };
  } catch {
    return { rssKb: NaN, peakKb: NaN };
  }
}

/** A script of the bench serving in a process of its own (the API, the bare pass-through). */
export interface ScriptProcess {
  readonly url: string;
  readonly pid: number;
  /** Closes its stdin, which ends it, and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `script` (relative to `root`) with tsx on `node`; it prints its URL as its first line on stdout. */
export async function startScript(
  root: string,
  script: string,
  args: string[] = [],
  node = process.execPath,
): Promise<ScriptProcess> {
  const child = spawn(node, ['--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  track(child.pid);
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.trim());
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before serving`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
      untrack(child.pid);
    },
  };
}

/** CPU time a process has used so far (user + system), in ms; NaN when it cannot be read. */
export function cpuMsOf(pid: number): number {
  return stat(pid)?.cpuMs ?? NaN;
}

/** Spawns `node -e ""` and waits for it to exit: the floor of any Node.js server's start-up. */
export async function bareNodeMs(node: string): Promise<number> {
  const t0 = performance.now();
  // The same spawn as the SDK's transport: piped stdio, the transport's default environment.
  const child = spawn(node, ['-e', ''], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: getDefaultEnvironment(),
  });
  track(child.pid);
  const [code] = (await once(child, 'exit')) as [number | null];
  const elapsed = performance.now() - t0;
  untrack(child.pid);
  if (code !== 0) throw new Error(`node -e "" exited with ${code}`);
  return elapsed;
}

function pickTool(
  tools: Tool[],
  given: string | undefined,
  preferred: string,
  pattern: RegExp,
): string | null {
  if (given !== undefined) {
    if (!tools.some((tool) => tool.name === given)) throw new Error(`the server has no tool ${given}`);
    return given;
  }
  if (tools.some((tool) => tool.name === preferred)) return preferred;
  return tools.find((tool) => pattern.test(tool.name))?.name ?? null;
}

function describeResult(result: CallToolResult): string {
  const text = result.content.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join(' ');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Spawns a server, connects the SDK client (initialize), and lists its tools, timing both from the spawn. */
export async function openSession(server: ServerCommand): Promise<Session> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: server.env,
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    stderr: 'pipe',
  });
  // Kept short: only for reporting why a server failed.
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  const client = new Client(
    { name: 'graphql-mcp-bench', version: '1.0.0' },
    server.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const fail = (what: string, error: unknown): Error =>
    new Error(
      `${server.command} ${server.args.join(' ')}: ${what}: ${error instanceof Error ? error.message : String(error)}` +
        (stderr ? `\n  stderr: ${stderr.trim()}` : ''),
    );

  // The PID is recorded the moment the process exists: the SDK forgets it when it closes the transport,
  // which the client does by itself when the server fails to answer initialize.
  let pid: number | null = null;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    pid = transport.pid;
    track(pid ?? undefined);
  };
  const t0 = performance.now();
  let tools: Tool[];
  let initializeMs: number;
  let toolsListMs: number;
  let queryTool: string | null;
  let introspectTool: string | null;
  try {
    await client.connect(transport);
    initializeMs = performance.now() - t0;
    // The client lists the tools before calling them, as hosts do; it also caches their output schemas.
    tools = (await client.listTools()).tools;
    toolsListMs = performance.now() - t0;
    queryTool = pickTool(tools, server.queryTool, 'graphql_query', /query/i);
    introspectTool = pickTool(tools, server.introspectTool, 'graphql_introspect', /introspect|schema/i);
    if (!queryTool) throw new Error(`no query tool among ${tools.map((tool) => tool.name).join(', ')}`);
  } catch (error) {
    const tree = pid === null ? [] : processTree(pid);
    await transport.close().catch(() => {});
    for (const member of tree.reverse()) killIfSame(member);
    untrack(pid ?? undefined);
    throw fail('start-up failed', error);
  }
  const rootPid = pid!;
  const runQuery = queryTool;

  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    session.calls++;
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw fail(`${name} failed`, describeResult(result));
    return result;
  };
  const session: Session = {
    pid: rootPid,
    initializeMs,
    toolsListMs,
    calls: 0,
    query: async (query) => {
      await call(runQuery, { query });
    },
    introspect: async () => {
      if (!introspectTool)
        throw fail('no introspection tool', `tools: ${tools.map((tool) => tool.name).join(', ')}`);
      const result = await call(introspectTool, {});
      return result.content.reduce((sum, item) => sum + (item.type === 'text' ? item.text.length : 0), 0);
    },
    ping: async () => {
      await client.ping();
    },
    serverPid: () => processTree(rootPid).at(-1)?.pid ?? rootPid,
    close: async () => {
      // Behind a package runner the server is a grandchild, which closing the runner may not end.
      const tree = processTree(rootPid);
      await client.close();
      for (const member of tree.reverse()) killIfSame(member);
      untrack(rootPid);
    },
  };
  return session;
}
