import { ToolError } from '../common/errors.js';
import type { OAuthClientAuth } from '../config/types.js';
import type { ProviderError } from './token-request.js';

// CREDENTIALS_UNAVAILABLE: no token was obtained for an API, so nothing was sent to it. The message names the
// API and what the authorization server said (its `error`, and its description redacted and bounded), and what
// can be done: by the person (sign in again), by the operator (the provider's settings), or later.

/** Most characters of a provider's error_description quoted. */
const MAX_DESCRIPTION_CHARS = 200;

/** What was being done, for whom. */
export interface Attempt {
  readonly api: string;
  readonly auth: OAuthClientAuth;
  /** A user's token exchange (else the server's own client credentials). */
  readonly exchange: boolean;
}

/** The ToolError for a provider's failure; `redact` hides the secrets a description may echo. */
export function unavailable(
  error: ProviderError,
  attempt: Attempt,
  redact: (text: string) => string,
): ToolError {
  const { failure, at } = error;
  const { api, auth } = attempt;
  const what = attempt.exchange
    ? `exchange your sign-in for a token of API ${api}`
    : `issue this server's token for API ${api}`;
  const nothing = `nothing was sent to ${api}`;
  let message: string;
  switch (failure.kind) {
    case 'refused': {
      const description =
        failure.description === undefined ? '' : ` (${JSON.stringify(bounded(redact(failure.description)))})`;
      message = `the identity provider refused to ${what}: ${failure.error}${description}; ${nothing}. ${advice(failure.error, attempt)}`;
      break;
    }
    case 'unreachable':
      message = `the identity provider at ${at} could not be reached to ${what} (${failure.code}); ${nothing}. Try again later`;
      break;
    case 'timeout':
      message = `the identity provider at ${at} did not answer within ${auth.timeout} ms to ${what}; ${nothing}. Try again later`;
      break;
    case 'invalid':
      message = `the identity provider at ${at} gave no usable answer to ${what}: ${failure.problem}; ${nothing}. The operator must check apis.${api}.auth`;
      break;
  }
  return new ToolError('CREDENTIALS_UNAVAILABLE', message, { cause: error });
}

/** What to do about an OAuth error, and who: the person, or the operator who configured `auth`. */
function advice(error: string, { api, auth, exchange }: Attempt): string {
  const operator = `the operator must change it at the provider or in apis.${api}.auth`;
  switch (error) {
    case 'invalid_grant':
      return exchange
        ? 'Your sign-in may have expired or been revoked, or the provider does not accept it for an exchange: sign in again; if it persists, ask the operator'
        : `The provider did not accept the grant: ${operator}`;
    case 'invalid_target':
      return `The provider does not issue tokens for ${api}'s audience or resource as asked: ${operator}`;
    case 'invalid_scope':
      return `The provider does not grant the scopes asked for (${auth.scope.join(' ') || 'none named'}): ${operator}`;
    case 'unauthorized_client':
      return `This server's client may not use the ${exchange ? 'token-exchange' : 'client-credentials'} grant: ${operator}`;
    case 'invalid_client':
      return `The provider did not accept this server's client credentials (clientId, clientSecret, clientAuth): ${operator}`;
    case 'access_denied':
      return exchange
        ? `The provider's policy does not let you act at ${api}: ask an administrator`
        : `The provider's policy does not let this server act at ${api}: ${operator}`;
    case 'temporarily_unavailable':
      return 'Try again later';
    default:
      return `The operator must check apis.${api}.auth and the provider's settings`;
  }
}

/** A description as it may be quoted: one line, at most MAX_DESCRIPTION_CHARS, the rest counted. */
function bounded(text: string): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\x00-\x1f\x7f\u2028\u2029]+/g, ' ').trim();
  if (line.length <= MAX_DESCRIPTION_CHARS) return line;
  return `${line.slice(0, MAX_DESCRIPTION_CHARS)}… (${line.length - MAX_DESCRIPTION_CHARS} more characters)`;
}
