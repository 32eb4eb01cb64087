import type { Secrets } from '../redaction/redactor.js';
import type { Api } from '../api/api.js';
import type { Confirmer } from './confirmation.js';
import type { Diagnostics } from './diagnostics.js';

/** What the tools of one server share: its APIs, their secrets, how calls are reported and who confirms. */
export interface ToolContext {
  readonly apis: readonly Api[];
  /** Every API's secrets: hidden in every answer, whichever API it comes from. */
  readonly secrets: Secrets;
  readonly diagnostics: Diagnostics;
  readonly confirmer: Confirmer;
}
