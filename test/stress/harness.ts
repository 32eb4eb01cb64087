// Shared by the reliability suites (test/e2e/{hostile-input,secrets,load}.test.ts) and the long runs in
// test/stress: the built binary spoken to in raw JSON-RPC with every byte of its stdout kept, what /proc
// says about the process (memory, descriptors, main-thread CPU), a ping heartbeat that measures how long
// the event loop stayed busy, and a bounded-concurrency pool.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import { CLI } from '../fixtures/mcp.ts';

/** The error codes of docs/contract.md that a tool result may start with. */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'ENDPOINT_NOT_ALLOWED',
  'SYNTAX_ERROR',
  'INVALID_DOCUMENT',
  'OPERATION_NOT_FOUND',
  'SUBSCRIPTION_NOT_SUPPORTED',
  'MUTATION_NOT_ALLOWED',
  'COMPLEXITY_LIMIT',
  'VALIDATION_FAILED',
  'TIMEOUT',
  'NETWORK_ERROR',
  'HTTP_ERROR',
  'INVALID_RESPONSE',
  'RESPONSE_TOO_LARGE',
  'INTROSPECTION_FAILED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Fuzz suites multiply their case counts by GRAPHQL_MCP_FUZZ_SCALE (npm run test:stress sets 5). */
export const FUZZ_SCALE = Math.max(1, Number(process.env.GRAPHQL_MCP_FUZZ_SCALE ?? '1') || 1);

export interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** An answer to tools/call: a tool result, or a JSON-RPC error for a call the protocol layer refused. */
export type CallOutcome =
  | { kind: 'success'; result: ToolResult }
  | { kind: 'graphql-errors'; result: ToolResult }
  | { kind: 'error'; code: ErrorCode; text: string; result: ToolResult }
  | { kind: 'protocol-error'; error: { code: number; message: string } }
  | { kind: 'unclear'; why: string };

/** What a tools/call answer is; anything but `unclear` is a result or a clear error. */
export function classify(message: JsonRpcMessage): CallOutcome {
  if (message.error !== undefined) {
    const { code, message: text } = message.error;
    return typeof code === 'number' && typeof text === 'string'
      ? { kind: 'protocol-error', error: { code, message: text } }
      : { kind: 'unclear', why: `malformed JSON-RPC error ${JSON.stringify(message.error)}` };
  }
  const result = message.result as ToolResult | undefined;
  if (result === undefined || !Array.isArray(result.content)) {
    return { kind: 'unclear', why: `no tool result: ${JSON.stringify(message).slice(0, 300)}` };
  }
  const first = result.content[0]?.text ?? '';
  if (result.isError !== true) return { kind: 'success', result };
  const code = ERROR_CODES.find((c) => first.startsWith(`${c}: `));
  if (code !== undefined) return { kind: 'error', code, text: first, result };
  // A GraphQL response holding only errors is an error result that keeps the response (docs/contract.md).
  if (result.structuredContent !== undefined && first === JSON.stringify(result.structuredContent)) {
    return { kind: 'graphql-errors', result };
  }
  return { kind: 'unclear', why: `error result without a code: ${JSON.stringify(first.slice(0, 300))}` };
}

/** Whether a parsed stdout line is a JSON-RPC 2.0 message. */
export function isJsonRpcMessage(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const m = message as JsonRpcMessage;
  if (m.jsonrpc !== '2.0') return false;
  const isResponse =
    (typeof m.id === 'number' || typeof m.id === 'string') &&
    'result' in m !== 'error' in m &&
    !('method' in m);
  return isResponse || typeof m.method === 'string';
}

/**
 * The built binary, spoken to in newline-delimited JSON-RPC by hand. Every byte it writes to stdout and
 * stderr is kept, so a test can check that stdout held nothing but JSON-RPC and that no secret appeared.
 */
export class RawMcp {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  #stdout: Buffer[] = [];
  #stderr: Buffer[] = [];
  #buffer = '';
  #nextId = 1;
  #pending = new Map<number, { answer: (message: JsonRpcMessage) => void; fail: (error: Error) => void }>();
  /** Lines of stdout that were not JSON-RPC messages, kept for the assertion that there are none. */
  readonly strayLines: string[] = [];

  /** `bin`: another build of the binary than the one under test (a copy altered by the test). */
  constructor(args: readonly string[], env: Record<string, string> = {}, bin = CLI) {
    this.child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // A process that has exited cannot take more input; the test sees that through `exit`.
    this.child.stdin.on('error', () => undefined);
    this.child.stdout.on('data', (chunk: Buffer) => this.#receive(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => this.#stderr.push(chunk));
    this.exit = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => {
        resolve({ code, signal, at: performance.now() });
        // Requests still waiting will get no answer; their timers must not keep the test alive.
        for (const { fail } of this.#pending.values())
          fail(new Error(`the process exited (${code ?? signal})`));
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Every byte written to stdout so far. */
  stdout(): Buffer {
    return Buffer.concat(this.#stdout);
  }

  /** Every byte written to stderr so far. */
  stderr(): Buffer {
    return Buffer.concat(this.#stderr);
  }

  #receive(chunk: Buffer): void {
    this.#stdout.push(chunk);
    this.#buffer += chunk.toString('utf8');
    for (let end = this.#buffer.indexOf('\n'); end >= 0; end = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.strayLines.push(line.slice(0, 300));
        continue;
      }
      if (!isJsonRpcMessage(message)) this.strayLines.push(line.slice(0, 300));
      const id = (message as JsonRpcMessage).id;
      if (typeof id === 'number') this.#pending.get(id)?.answer(message as JsonRpcMessage);
    }
  }

  /** Writes one line as it is (the caller may build JSON by hand, e.g. with a literal "__proto__" key). */
  writeLine(line: string): Promise<void> {
    return new Promise((resolve) => this.child.stdin.write(`${line}\n`, () => resolve()));
  }

  /**
   * Sends a request whose params are given as JSON text (so that keys such as "__proto__" survive) and
   * resolves with the answer; `written` resolves once the whole line is in the pipe.
   */
  requestRaw(
    method: string,
    paramsJson: string | undefined,
    timeoutMs = 30_000,
  ): { id: number; written: Promise<void>; answer: Promise<JsonRpcMessage> } {
    const id = this.#nextId++;
    const params = paramsJson === undefined ? '' : `,"params":${paramsJson}`;
    const answer = new Promise<JsonRpcMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`no answer to ${method} #${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, {
        answer: (message) => {
          clearTimeout(timer);
          this.#pending.delete(id);
          resolve(message);
        },
        fail: (error) => {
          clearTimeout(timer);
          this.#pending.delete(id);
          reject(error);
        },
      });
    });
    const written = this.writeLine(
      `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}${params}}`,
    );
    return { id, written, answer };
  }

  request(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<JsonRpcMessage> {
    return this.requestRaw(method, params === undefined ? undefined : JSON.stringify(params), timeoutMs)
      .answer;
  }

  notify(method: string, params?: Record<string, unknown>): void {
    const body = params === undefined ? '' : `,"params":${JSON.stringify(params)}`;
    void this.writeLine(`{"jsonrpc":"2.0","method":${JSON.stringify(method)}${body}}`);
  }

  async initialize(): Promise<JsonRpcMessage> {
    const answer = await this.request('initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'graphql-mcp-reliability', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return answer;
  }

  callTool(name: string, args: unknown, timeoutMs?: number): Promise<JsonRpcMessage> {
    return this.request('tools/call', { name, arguments: args }, timeoutMs);
  }

  /** tools/call with the arguments given as JSON text. */
  callToolRaw(name: string, argumentsJson: string, timeoutMs?: number) {
    return this.requestRaw(
      'tools/call',
      `{"name":${JSON.stringify(name)},"arguments":${argumentsJson}}`,
      timeoutMs,
    );
  }

  /** Every complete stdout line parsed; throws on the first that is not a JSON-RPC 2.0 message. */
  stdoutMessages(): JsonRpcMessage[] {
    const raw = this.stdout().toString('utf8');
    if (raw === '') return [];
    if (!raw.endsWith('\n')) throw new Error('stdout does not end with a complete line');
    return raw
      .slice(0, -1)
      .split('\n')
      .map((line) => {
        const message: unknown = JSON.parse(line);
        if (!isJsonRpcMessage(message)) throw new Error(`not a JSON-RPC 2.0 message: ${line.slice(0, 300)}`);
        return message as JsonRpcMessage;
      });
  }

  /** Closes stdin and waits for the exit; kills the process if it has not exited within `graceMs`. */
  async close(graceMs = 3_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.kill();
        resolve();
      }, graceMs);
    });
    await Promise.race([this.exit, killed]);
    clearTimeout(timer);
    return this.exit;
  }

  /** Kills the process if it is still running (only this process, by its own handle). */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

// ---------------------------------------------------------------------------------------------------------
// /proc

/** Resident set size now and at its peak (VmHWM), in MiB. */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** The environment that loads test/stress/heap-probe.mjs into a server, which then answers heapAfterGcMiB. */
export function heapProbeEnv(file: string): Record<string, string> {
  const probe = new URL('./heap-probe.mjs', import.meta.url).href;
  return { NODE_OPTIONS: `--expose-gc --import ${probe}`, GRAPHQL_MCP_HEAP_PROBE: file };
}

/**
 * The V8 heap in use by a server started with heapProbeEnv(file), in MiB, after a full garbage collection:
 * what it holds on to, whatever the runtime has reserved (RSS grows with the heap's size, which V8 sets
 * lazily and differently from one version to the next).
 */
export async function heapAfterGcMiB(pid: number, file: string): Promise<number> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const end = performance.now() + 20_000;
  for (;;) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // not written yet
    }
    if (text !== '') return Number(text) / 1024 / 1024;
    if (performance.now() > end) throw new Error(`process ${pid} wrote no heap figure to ${file}`);
    await sleep(10);
  }
}

/** Open file descriptors of a process, and how many of them are sockets. */
export function descriptorsOf(pid: number): { fds: number; sockets: number } {
  let sockets = 0;
  const entries = readdirSync(`/proc/${pid}/fd`);
  for (const fd of entries) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++;
    } catch {
      // closed between the listing and the read
    }
  }
  return { fds: entries.length, sockets };
}

/**
 * CPU time the process's main thread (where its event loop runs) has used, in ms, from the scheduler's
 * nanosecond account (/proc/<pid>/task/<pid>/schedstat). Worker threads (GC, libuv) are not counted.
 */
export function mainThreadCpuMs(pid: number): number {
  const text = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8');
  return Number(text.split(' ')[0]) / 1e6;
}

// ---------------------------------------------------------------------------------------------------------
// Event-loop heartbeat

export interface HeartbeatFigures {
  pings: number;
  /** Longest ping round trip seen from the test process, in ms. */
  maxRoundTripMs: number;
  /**
   * Longest time the server's event loop was busy during one ping, in ms: the round trip, but no more
   * than the CPU time the server's main thread used meanwhile (see Heartbeat).
   */
  maxBusyMs: number;
  /** The ping at which maxBusyMs was seen, with a label of what was going on. */
  worst: string;
}

/**
 * Pings the server every `intervalMs` and times each round trip. A ping is answered only when the event
 * loop gets to it, so the round trip bounds how long the loop was busy. On a shared machine a round trip
 * also grows while the server is not scheduled at all, which is the machine's doing, not a blocked loop:
 * so the busy time of a ping is its round trip capped by the CPU time the server's main thread used
 * during it (the loop runs on that thread; time it spent not running cannot have been spent blocking).
 */
export class Heartbeat {
  #pings = 0;
  #maxRoundTrip = 0;
  #maxBusy = 0;
  #worst = 'none';
  #running = true;
  #label = '';
  readonly #done: Promise<void>;

  constructor(
    readonly session: RawMcp,
    readonly intervalMs = 10,
  ) {
    this.#done = this.#loop();
  }

  /** Names what the following pings overlap with, for the report of the worst one. */
  label(text: string): void {
    this.#label = text;
  }

  #paused = false;

  /**
   * Stops sending pings until resume(). A ping written behind a 10 MB message waits for the whole message
   * to cross the pipe, which takes many short reads, not one long task: pausing while such a message is
   * written keeps that transfer time out of the round trips.
   */
  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
  }

  async #loop(): Promise<void> {
    while (this.#running && this.session.child.exitCode === null) {
      if (this.#paused) {
        await sleep(1);
        continue;
      }
      const cpuBefore = mainThreadCpuMs(this.session.pid);
      const start = performance.now();
      try {
        await this.session.request('ping', undefined, 60_000);
      } catch {
        break; // the process has gone; the tests see that on their own
      }
      const roundTrip = performance.now() - start;
      let cpu = roundTrip;
      try {
        cpu = mainThreadCpuMs(this.session.pid) - cpuBefore;
      } catch {
        // the process is gone; keep the round trip
      }
      const busy = Math.min(roundTrip, cpu);
      this.#pings++;
      this.#maxRoundTrip = Math.max(this.#maxRoundTrip, roundTrip);
      if (busy > this.#maxBusy) {
        this.#maxBusy = busy;
        this.#worst = `${Math.round(busy)} ms busy (round trip ${Math.round(roundTrip)} ms, main-thread CPU ${Math.round(cpu)} ms) during ${this.#label}`;
      }
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }

  /** The figures since the last window (or the start), and a new window. */
  window(): HeartbeatFigures {
    const figures = {
      pings: this.#pings,
      maxRoundTripMs: this.#maxRoundTrip,
      maxBusyMs: this.#maxBusy,
      worst: this.#worst,
    };
    this.#pings = 0;
    this.#maxRoundTrip = 0;
    this.#maxBusy = 0;
    this.#worst = 'none';
    return figures;
  }

  /** Waits for a ping in flight to be answered, so that the last window is complete. */
  async settle(): Promise<void> {
    const seen = this.#pings;
    const end = performance.now() + 30_000;
    while (this.#pings === seen && this.#running && performance.now() < end) await sleep(5);
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#done;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

/** Runs `run` over `items` with at most `concurrency` at once; resolves when all have settled. */
export async function pool<T>(
  items: readonly T[],
  concurrency: number,
  run: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await run(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 10 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (check()) return true;
    await sleep(10);
  }
  return check();
}
