import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Config } from '../config.js';
import { cancelled, ToolError } from '../errors.js';
import type { HeaderSet } from '../http/headers.js';
import { Redactor } from '../redaction/redactor.js';

// One tool call, from its inputs to its result: what it has sent so far (every credential of it must be hidden
// wherever the endpoint echoes it), the notes it has gathered, and how its failures become error results.

/** What one call has sent, and the notes it carries. */
export class Call {
  /** What the server says of the call beside the answer (headers withheld, nobody asked): texts of their own. */
  notes: string[] = [];
  readonly #startup: readonly HeaderSet[];
  #headers: HeaderSet | undefined;
  readonly #urls: URL[];
  #redactor: Redactor | undefined;

  /** A call under `config`: every API's startup headers and configured URLs are its secrets. */
  constructor(config: Config) {
    this.#startup = config.secretHeaders;
    this.#urls = [...config.secretUrls];
  }

  /** Records the call's own headers and endpoint: their values are secrets of this call too. */
  sends(headers: HeaderSet, endpoint: URL): void {
    this.#headers = headers;
    this.#urls.push(endpoint);
    this.#redactor = undefined;
  }

  /** The matcher of this call's secrets, built when first needed (by then the call's headers are known). */
  get hide(): Redactor {
    // A call that adds no header of its own shares the startup headers' redactor.
    const headers =
      this.#headers === undefined || this.#headers.size === 0
        ? this.#startup
        : [...this.#startup, this.#headers];
    return (this.#redactor ??= Redactor.of(headers, this.#urls));
  }
}

/**
 * Runs a call; a ToolError becomes an error result with every credential of the call hidden and the call's
 * notes after it (`fit` bounds its message, where answers have a budget). A caller that gave up gets CANCELLED.
 */
export async function guarded<R>(
  call: Call,
  run: () => Promise<R>,
  options: { signal?: AbortSignal; fit?: (message: string, code: string) => string } = {},
): Promise<R | CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ToolError)) {
      // A shared load (the schema cache) rejects a caller that gave up with its signal's reason.
      if (options.signal?.aborted) return errorResult(cancelled(), call.notes);
      throw error;
    }
    const message = call.hide.text(error.message);
    return errorResult(new ToolError(error.code, options.fit?.(message, error.code) ?? message), call.notes);
  }
}

/** `CODE: message` as an error result, with any notes as further text contents. */
function errorResult(error: ToolError, notes: readonly string[] = []): CallToolResult {
  return {
    content: [`${error.code}: ${error.message}`, ...notes].map((text) => ({ type: 'text', text })),
    isError: true,
  };
}
