import { isAscii } from 'node:buffer';
import { read, writeSync } from 'node:fs';

/** MCP's stdio framing: one JSON-RPC message per line. The SDK's transport drops a session past this. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * Lines on stdin and stdout, readable before Node's streams are loaded.
 *
 * Creating process.stdin loads net and the stream modules: about 3 ms, an eighth of Node's own start-up.
 * So the session starts "direct": reads are fs.read calls on fd 0 (one at a time, in libuv's thread pool)
 * and writes are fs.writeSync calls on fd 1, which the small start-up answers suit. `useStreams()` moves
 * to process.stdin and process.stdout, which a long session needs: it happens between two reads, never
 * while one is pending, so no byte is read twice or lost, and every direct write is done before the first
 * stream write, so none overtakes another.
 *
 * A pending direct read blocks a thread-pool thread until the client writes, and Node's exit waits for
 * that thread: `exitMayHang` says when exiting must not go through process.exit (see stdio.ts).
 */
export class StdioLines {
  #streams = false;
  #streamsWanted = false;
  #readPending = false;
  #ended = false;
  readonly #partial = new PartialLine();
  readonly #chunk = Buffer.allocUnsafe(64 * 1024);

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onEnd: (why?: string) => void,
  ) {}

  start(): void {
    this.#readDirect();
  }

  get exitMayHang(): boolean {
    return this.#readPending;
  }

  /** Moves to process.stdin/stdout after the read in progress, if any. */
  useStreams(): void {
    this.#streamsWanted = true;
    if (!this.#readPending && !this.#streams && !this.#ended) this.#startStreams();
  }

  /** Writes one line; resolves when the pipe has taken it (at once unless stdout's buffer is full). */
  write(line: string): Promise<void> {
    const data = `${line}\n`;
    if (!this.#streams) {
      const bytes = Buffer.from(data, 'utf8');
      let written = 0;
      try {
        written = writeSync(1, bytes);
      } catch (error) {
        // A non-blocking stdout that is full (EAGAIN): the stream queues what follows.
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
          this.#end(`stdout failed: ${(error as Error).message}`);
          return Promise.resolve();
        }
      }
      if (written === bytes.length) return Promise.resolve();
      this.#startStreams();
      return this.#writeStream(bytes.subarray(written));
    }
    return this.#writeStream(data);
  }

  /** The protocol's own writer: only `write` (JSON-RPC lines from the session) reaches stdout through here. */
  #writeStream(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (process.stdout.write(data)) resolve();
      else process.stdout.once('drain', resolve);
    });
  }

  #readDirect(): void {
    this.#readPending = true;
    read(0, this.#chunk, 0, this.#chunk.length, null, (error, bytes) => {
      this.#readPending = false;
      if (error) {
        // EAGAIN: stdin is non-blocking (shared with a parent that made it so): only a stream can wait on it.
        if (error.code === 'EAGAIN') return this.#startStreams();
        return this.#end(error.code === 'EOF' ? undefined : `stdin failed: ${error.message}`);
      }
      if (bytes === 0) return this.#end();
      this.#take(this.#chunk.subarray(0, bytes));
      if (this.#ended) return;
      if (this.#streamsWanted) this.#startStreams();
      else this.#readDirect();
    });
  }

  #startStreams(): void {
    if (this.#streams) return;
    this.#streams = true;
    process.stdin.on('data', (chunk: Buffer) => this.#take(chunk));
    process.stdin.on('end', () => this.#end());
    process.stdin.on('error', (error) => this.#end(`stdin failed: ${error.message}`));
    process.stdout.on('error', (error) => this.#end(`stdout failed: ${error.message}`));
  }

  /** Splits bytes into lines. */
  #take(bytes: Buffer): void {
    let start = 0;
    for (
      let newline = bytes.indexOf(10);
      newline !== -1 && !this.#ended;
      newline = bytes.indexOf(10, start)
    ) {
      const line =
        this.#partial.length === 0
          ? bytes.toString('utf8', start, newline)
          : this.#partial.finish(bytes.subarray(start, newline));
      start = newline + 1;
      // The SDK's framing: a line may end in \r\n.
      this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (this.#ended || start === bytes.length) return;
    this.#partial.append(bytes.subarray(start));
    if (this.#partial.length > MAX_LINE_BYTES) this.#end(`a message is over ${MAX_LINE_BYTES} bytes`);
  }

  #end(why?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#partial.clear();
    if (this.#streams) process.stdin.pause();
    this.onEnd(why);
  }
}

/**
 * The bytes of a line still arriving. A long message comes in many chunks: they are copied into one
 * growing buffer as they come and decoded once, when the newline arrives. Decoding each chunk as it came
 * would put thousands of short strings on the JavaScript heap, which the collector copies again while they
 * wait for the rest of the line; and the copying done here is spread over the chunks, leaving the last one
 * with the decoding alone (a plain copy when the line is ASCII, as JSON-RPC mostly is).
 */
class PartialLine {
  #bytes = Buffer.alloc(0);
  #length = 0;
  #ascii = true;

  get length(): number {
    return this.#length;
  }

  append(bytes: Buffer): void {
    const needed = this.#length + bytes.length;
    if (needed > this.#bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, 2 * this.#bytes.length, 64 * 1024));
      this.#bytes.copy(grown, 0, 0, this.#length);
      this.#bytes = grown;
    }
    bytes.copy(this.#bytes, this.#length);
    this.#length = needed;
    this.#ascii &&= isAscii(bytes);
  }

  /** The whole line, once `last` (its bytes up to the newline) is added; leaves this empty. */
  finish(last: Buffer): string {
    this.append(last);
    const line = this.#bytes.toString(this.#ascii ? 'latin1' : 'utf8', 0, this.#length);
    this.clear();
    return line;
  }

  clear(): void {
    this.#bytes = Buffer.alloc(0);
    this.#length = 0;
    this.#ascii = true;
  }
}
