import type { Api } from '../api/api.js';
import type { RequestCredentials } from '../call/credentials.js';
import type { CallTarget } from '../call/target.js';
import type { Secrets } from '../redaction/redactor.js';
import type { Views } from '../apps/views.js';
import type { Confirmer } from './confirmation.js';
import type { Diagnostics } from './diagnostics.js';

/** What the tools of one server share: its APIs, their secrets, how calls are reported and who confirms. */
export interface ToolContext {
  readonly apis: readonly Api[];
  /** Every API's secrets: hidden in every answer, whichever API it comes from. */
  readonly secrets: Secrets;
  readonly diagnostics: Diagnostics;
  readonly confirmer: Confirmer;
  /** The MCP Apps view that graphql_query and the operation tools show (where the server offers it). */
  readonly views?: Views;
  /** What the request brings for the APIs (remote mode: forwarded headers); undefined on stdio. */
  readonly credentials?: RequestCredentials | undefined;
  /** The target remote mode's front worked out for this request's tool call, which the tool then uses. */
  readonly target?: FrontTarget | undefined;
}

/** A tool call's target as the front worked it out, for the tool it names. */
export interface FrontTarget {
  readonly tool: string;
  readonly target: CallTarget;
}

/** The target the front worked out for `tool`, if any; else `compute` works it out here (stdio). */
export function targetFor(
  tools: Pick<ToolContext, 'target'>,
  tool: string,
  compute: () => CallTarget,
): CallTarget {
  return tools.target?.tool === tool ? tools.target.target : compute();
}
