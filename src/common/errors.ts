/** The error codes of the contract (docs/contract.md, docs/errors.md), one per way a call can fail. */
export type ErrorCode =
  | 'INVALID_INPUT'
  | 'ENDPOINT_NOT_ALLOWED'
  | 'SYNTAX_ERROR'
  | 'INVALID_DOCUMENT'
  | 'OPERATION_NOT_FOUND'
  | 'DOCUMENT_NOT_TRUSTED'
  | 'SUBSCRIPTION_NOT_SUPPORTED'
  | 'MUTATION_NOT_ALLOWED'
  | 'MUTATION_DECLINED'
  | 'CONFIRMATION_UNAVAILABLE'
  | 'CREDENTIALS_UNAVAILABLE'
  | 'COMPLEXITY_LIMIT'
  | 'COST_LIMIT'
  | 'VALIDATION_FAILED'
  | 'TIMEOUT'
  | 'NETWORK_ERROR'
  | 'HTTP_ERROR'
  | 'INVALID_RESPONSE'
  | 'RESPONSE_TOO_LARGE'
  | 'INTROSPECTION_FAILED'
  | 'CANCELLED';

/**
 * A failure the model can act on, with its stable code: every step of a call throws one, and the tools turn it
 * into an `isError` result whose text starts with the code (src/tools/call.ts).
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  /** The HTTP status the endpoint answered with, when the failure is its answer. */
  readonly status: number | undefined;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options);
    this.status = options?.status;
  }
}

/** The client cancelled the call (notifications/cancelled, or its connection went away). */
export function cancelled(): ToolError {
  return new ToolError('CANCELLED', 'the client cancelled the call');
}
