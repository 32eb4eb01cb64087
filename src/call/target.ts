import type { Api } from '../api/api.js';
import { ToolError } from '../common/errors.js';
import { describeEndpoint, EndpointError, parseEndpoint } from '../http/endpoint.js';
import { HeaderError, HeaderSet } from '../http/headers.js';
import { CallCredential, type RequestCredentials } from './credentials.js';
import { apiFor, isTrusted, notAllowed } from './security.js';

// Where one call goes, worked out once when it starts (by remote mode's front, else by the tool): its API, the
// endpoint, the headers to send, what the API's credentials may reach, and the rule for redirects. The
// credentials a request carries (forwarded headers, the user an API's `auth` acts for) are inputs of the target,
// never part of an ApiConfig: the operator's configuration stays the operator's. Every later step reads this
// value; the one thing it fetches is an `auth` token, when the call is about to be sent (`sending`).

/** Where a call goes, and with what. */
export class CallTarget {
  /** What is sent: the API's credentials where they may go, then the call's own, replacing by name. */
  readonly headers: HeaderSet;
  /** Whether the API's credentials (configured and forwarded) may go to this endpoint. */
  readonly trusted: boolean;
  /** The API's header names not sent (withheld, and not replaced by one of the call's own). */
  readonly withheld: readonly string[];
  /** Who the API sees through its `auth`, where the call may send it (a trusted endpoint). */
  readonly credential: CallCredential | undefined;
  /** The tokens obtained for this call (its `auth`): secrets of the call from the moment they exist. */
  readonly tokens: string[] = [];

  constructor(
    readonly api: Api,
    readonly endpoint: URL,
    /** The call's own headers, from its `headers` input: the model's choice. */
    readonly own: HeaderSet = EMPTY,
    /** The request's credentials for the APIs: forwarded headers, and the verified user. */
    readonly request?: RequestCredentials,
  ) {
    const { config } = api;
    const refused = notAllowed(config, endpoint);
    if (refused !== undefined) {
      throw new ToolError('ENDPOINT_NOT_ALLOWED', `${describeEndpoint(endpoint)} ${refused}`);
    }
    this.trusted = isTrusted(config, endpoint);
    const forwarded = this.forwarded;
    const credentials = forwarded.size === 0 ? config.headers : config.headers.merge(forwarded);
    const authHeader = config.auth?.header;
    if (this.trusted && authHeader !== undefined && own.has(authHeader)) {
      throw new ToolError(
        'INVALID_INPUT',
        `headers: ${authHeader} is what the API ${config.name} is sent by its auth (a token from its identity provider), and a call cannot replace it; leave it out`,
      );
    }
    this.credential =
      this.trusted && config.auth !== undefined ? new CallCredential(config, request?.user) : undefined;
    this.headers = this.trusted ? credentials.merge(own) : own;
    const names = authHeader === undefined ? credentials.names() : [...credentials.names(), authHeader];
    this.withheld = this.trusted ? [] : names.filter((name) => !own.has(name));
  }

  /** The request's forwarded headers for this API (--forwardHeaders): the user's, secrets like the configured ones. */
  get forwarded(): HeaderSet {
    return this.request?.forwarded.get(this.api.config.name) ?? EMPTY;
  }

  /**
   * The headers to send: `headers`, and the API's `auth` header, obtained now (from the cache or the identity
   * provider: CREDENTIALS_UNAVAILABLE when it refuses, and then nothing is sent). Its token joins `tokens`.
   */
  async sending(signal?: AbortSignal): Promise<HeaderSet> {
    if (this.credential === undefined) return this.headers;
    const obtained = await this.credential.obtain(signal);
    if (!this.tokens.includes(obtained.token)) this.tokens.push(obtained.token);
    return this.headers.merge(HeaderSet.of({ [obtained.name]: obtained.value }));
  }

  /**
   * Why a redirect hop may not be followed (postGraphQL's checkHop), or undefined. A hop is checked as a direct
   * call would be, so that a path-scoped --allowedEndpoints bounds where credentials go; and every hop is sent
   * the first request's headers, so one that a direct call would send other headers (trusted against not) is
   * not followed either.
   */
  readonly checkHop = (hop: URL): string | undefined => {
    const { config } = this.api;
    const refused = notAllowed(config, hop);
    if (refused !== undefined) return `which ${refused}`;
    if (isTrusted(config, hop) !== this.trusted) {
      return `where a direct call ${this.trusted ? 'would not get' : 'would get'} the startup headers`;
    }
    return undefined;
  };

  /** The note a result carries when the API's headers were withheld, so that a 401 there is understood. */
  withheldNotes(): string[] {
    if (this.withheld.length === 0) return [];
    const { config } = this.api;
    return [
      `Note: the startup headers (${this.withheld.join(', ')}) were not sent to ${describeEndpoint(this.endpoint)}: ` +
        `they go only to ${config.endpoint.origin}${config.allowedEndpoints ? ' and the --allowedEndpoints' : ''}. ` +
        'Pass the credentials this endpoint needs in the headers input.',
    ];
  }

  /**
   * What to do about a 401 or 403: which header names were sent to this endpoint and which configured ones were
   * not (names only, never values).
   */
  credentialAdvice(): string {
    const { config } = this.api;
    const auth =
      this.credential &&
      `${this.credential.header} (the token of ${this.credential.actor}, from its identity provider)`;
    const sentNames = auth === undefined ? this.headers.names() : [...this.headers.names(), auth];
    const where = `${config.endpoint.origin}${config.allowedEndpoints ? ' and the --allowedEndpoints' : ''}`;
    if (sentNames.length > 0) {
      const also =
        this.withheld.length > 0
          ? `; the startup headers ${this.withheld.join(', ')} were not sent here`
          : '';
      return (
        `Sent to ${describeEndpoint(this.endpoint)}: the headers ${sentNames.join(', ')}${also}. ` +
        'Check that the credential is valid and allowed to do this, or pass another in the headers input'
      );
    }
    if (this.withheld.length > 0) {
      return `No credentials were sent: the startup headers ${this.withheld.join(', ')} go only to ${where}. Pass the credentials this endpoint needs in the headers input`;
    }
    return (
      'No credentials were sent: configure them when starting the server (--headers or GRAPHQL_HEADERS, e.g. ' +
      '{"Authorization":"Bearer <token>"}), or pass them in the headers input'
    );
  }
}
const EMPTY = new HeaderSet();

/** The target of a call to the API's own endpoint (an operation tool, a schema resource), with no headers of its own. */
export function apiTarget(api: Api, credentials?: RequestCredentials): CallTarget {
  return new CallTarget(api, api.config.endpoint, EMPTY, credentials);
}

/** The inputs of a built-in tool that decide its target. */
export interface TargetInput {
  readonly api?: string | undefined;
  readonly endpoint?: string | undefined;
  readonly headers?: unknown;
}

/**
 * The target of a call from its checked inputs: the API it names (else the one that trusts its endpoint, else
 * the first), the endpoint (its own, else the API's) and its own headers. The headers are read from the raw
 * arguments: a validator's copy silently drops a "__proto__" key, and they go to the endpoint as given.
 */
export function callTarget(
  apis: readonly Api[],
  input: TargetInput,
  raw: Record<string, unknown>,
  credentials?: RequestCredentials,
): CallTarget {
  const given = input.endpoint === undefined ? undefined : readEndpoint(input.endpoint);
  const api = apiFor(apis, input.api, given);
  const own = readHeaders(input.headers === undefined ? undefined : (raw.headers as Record<string, unknown>));
  return new CallTarget(api, given ?? api.config.endpoint, own, credentials);
}

/** The endpoint input, checked: INVALID_INPUT saying what is wrong (never its user-info or query). */
function readEndpoint(given: string): URL {
  try {
    return parseEndpoint(given);
  } catch (error) {
    if (error instanceof EndpointError) throw new ToolError('INVALID_INPUT', `endpoint ${error.message}`);
    throw error;
  }
}

/** The call's headers as a HeaderSet, or INVALID_INPUT naming the bad header (never its value). */
function readHeaders(given: Record<string, unknown> | undefined): HeaderSet {
  try {
    return HeaderSet.of(given ?? {});
  } catch (error) {
    if (error instanceof HeaderError) throw new ToolError('INVALID_INPUT', `headers: ${error.message}`);
    throw error;
  }
}
