import type { CallToolResult } from '@modelcontextprotocol/server';

/** The error codes of the contract (DESIGN.md), one per way a call can fail. */
export type ErrorCode =
  | 'INVALID_INPUT'
  | 'ENDPOINT_NOT_ALLOWED'
  | 'SYNTAX_ERROR'
  | 'INVALID_DOCUMENT'
  | 'OPERATION_NOT_FOUND'
  | 'SUBSCRIPTION_NOT_SUPPORTED'
  | 'MUTATION_NOT_ALLOWED'
  | 'MUTATION_DECLINED'
  | 'COMPLEXITY_LIMIT'
  | 'VALIDATION_FAILED'
  | 'TIMEOUT'
  | 'NETWORK_ERROR'
  | 'HTTP_ERROR'
  | 'INVALID_RESPONSE'
  | 'RESPONSE_TOO_LARGE'
  | 'INTROSPECTION_FAILED'
  | 'CANCELLED';

/** A failure the model can act on: becomes an `isError` result whose text starts with its code. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  /** The HTTP status the endpoint answered with, when the failure is its answer. */
  readonly status: number | undefined;
  /** An answer worth repeating for a while instead of asking again (introspection turned off). */
  remember = false;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options);
    this.status = options?.status;
  }
}

/** `CODE: message` as an error result, with any notes as further text contents. */
export function errorResult(error: ToolError, notes: readonly string[] = []): CallToolResult {
  return {
    content: [`${error.code}: ${error.message}`, ...notes].map((text) => ({ type: 'text', text })),
    isError: true,
  };
}
