import type { CallToolResult } from '@modelcontextprotocol/server';
import { cancelled, ToolError } from '../common/errors.js';
import { Redactor, type Secrets } from '../redaction/redactor.js';
import type { CallTarget } from '../call/target.js';

// One tool call, from its inputs to its result: what it has sent so far (every credential of it must be hidden
// wherever the endpoint echoes it), the notes it has gathered, and how its failures become error results.

/** What one call has sent, and the notes it carries. */
export class Call {
  /** What the server says of the call beside the answer (headers withheld, nobody asked): texts of their own. */
  notes: string[] = [];
  readonly #operator: Secrets;
  #target: CallTarget | undefined;
  #secrets: Secrets | undefined;
  #redactor: Redactor | undefined;
  /** How many tokens the target had obtained when the secrets were gathered (a new one makes them anew). */
  #tokens = 0;

  /** A call of a server whose operator's secrets (every API's) are `secrets`: they are this call's too. */
  constructor(secrets: Secrets) {
    this.#operator = secrets;
  }

  /**
   * The secrets of the server's side of the call: the operator's, the credentials the request brought for its
   * API (forwarded headers) and the tokens its `auth` obtained, never what the model chose. A question masks
   * these and nothing else.
   */
  get secrets(): Secrets {
    const target = this.#target;
    if (target === undefined) return this.#operator;
    if (this.#secrets !== undefined && this.#tokens === target.tokens.length) return this.#secrets;
    const { forwarded, tokens } = target;
    const operator = this.#operator;
    this.#tokens = tokens.length;
    this.#redactor = undefined;
    return (this.#secrets =
      forwarded.size === 0 && tokens.length === 0
        ? operator
        : {
            headers: forwarded.size === 0 ? operator.headers : [...operator.headers, forwarded],
            urls: operator.urls,
            values: tokens.length === 0 ? operator.values : [...operator.values, ...tokens],
          });
  }

  /** Records where the call goes: its own headers and its endpoint's query values are secrets of it too. */
  sends(target: CallTarget): void {
    this.#target = target;
    this.#secrets = undefined;
    this.#redactor = undefined;
  }

  /** The matcher of this call's secrets, built when first needed (by then its target is known). */
  get hide(): Redactor {
    const { headers, urls, values } = this.secrets;
    if (this.#redactor !== undefined) return this.#redactor;
    const own = this.#target?.own;
    // A call that adds no header or URL of its own shares the operator's redactor (Redactor.of keeps one per
    // array of headers): an endpoint whose query the configured URLs already hold adds nothing.
    const allHeaders = own === undefined || own.size === 0 ? headers : [...headers, own];
    const endpoint = this.#target?.endpoint;
    const allUrls =
      endpoint === undefined || endpoint.search === '' || urls.some((url) => url.search === endpoint.search)
        ? urls
        : [...urls, endpoint];
    return (this.#redactor = Redactor.of(allHeaders, allUrls, values));
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
