// Where both tools get an endpoint's schema: graphql_introspect to answer with it, graphql_query to validate
// documents before sending them. Fetched schemas are shared by the servers of the process (remote mode makes
// one per request) in one cache per TTL, found only by the endpoint and the very headers sent; an endpoint
// that refuses introspection is remembered for a short while, so that repeated calls do not hit it again.
import type { IntrospectionQuery } from 'graphql';
import { ToolError } from '../common/errors.js';
import { errorCodes, errorMessages, isAuthFailure } from '../graphql/response.js';
import {
  BASIC_INTROSPECTION_QUERY,
  INTROSPECTION_QUERY,
  introspectionDisabled,
  introspectionOf,
  lacksNewerFields,
} from './introspection.js';
import { SchemaCache } from './cache.js';
import { IntrospectedSchema } from './view.js';
import { describeEndpoint } from '../http/endpoint.js';
import { persistedAnswer } from '../http/persisted.js';
import { postGraphQL } from '../http/post-graphql.js';
import { operatorRedactor, type Secrets } from '../redaction/redactor.js';
import type { HeaderSet } from '../http/headers.js';
import type { ApiProtocol } from '../http/post-graphql.js';
import * as diagnostics from '../common/diagnostics.js';

/** What of an API's configuration reading its schema obeys (config/types.ts's ApiConfig has all of it). */
export interface SchemaSettings {
  readonly name: string;
  /** Its own endpoint: the one its --schema file is the schema of. */
  readonly endpoint: URL;
  readonly timeout: number;
  readonly schemaTtl: number;
  readonly maxSchemaChars: number;
  readonly protocol: Pick<ApiProtocol, 'method'>;
}

/**
 * Where a schema is read from, and with what: a call's target (call/target.ts works it out, with the rules of
 * trust that decide its headers and redirects).
 */
export interface SchemaTarget {
  readonly api: { readonly config: SchemaSettings; readonly schema?: IntrospectedSchema | undefined };
  readonly endpoint: URL;
  /** The headers sent but for an `auth` token: with `credential`, what the cache keeps a schema by. */
  readonly headers: HeaderSet;
  /** Who the API's `auth` acts as, where it sets a header: a user's schema is kept for that user. */
  readonly credential?: { readonly key: string } | undefined;
  /** The headers to send, the `auth` token obtained now (CREDENTIALS_UNAVAILABLE when it cannot be). */
  sending(signal?: AbortSignal): Promise<HeaderSet>;
  /** Why a redirect hop may not be followed, or undefined. */
  readonly checkHop: (hop: URL) => string | undefined;
  /** What to do about a 401 or 403 (names of what was and was not sent). */
  credentialAdvice(): string;
  /** The notes of an answer whose API's headers were withheld. */
  withheldNotes(): string[];
}

/** Introspection results of large APIs are big; queries keep the smaller --maxResponseBytes. */
const MAX_INTROSPECTION_BYTES = 64 * 1024 * 1024;
/** How long a refusal to introspect (introspection turned off) is answered from memory. */
const REFUSAL_MEMORY_MS = 30_000;

const processCaches = new Map<number, SchemaCache<IntrospectedSchema>>();
/** Refusals remembered at most. */
const MAX_REFUSALS = 256;
const refusals = new Map<string, { readonly error: ToolError; readonly until: number }>();
/** Failures worth repeating for a while instead of asking again: introspection turned off. */
const lasting = new WeakSet<ToolError>();

/** The cache that the servers of this process share for APIs of this --schemaTtl. */
export function sharedSchemaCache(
  config: Pick<SchemaSettings, 'schemaTtl'>,
): SchemaCache<IntrospectedSchema> {
  let cache = processCaches.get(config.schemaTtl);
  if (cache === undefined) {
    cache = new SchemaCache({ ttlMs: config.schemaTtl * 1000 });
    processCaches.set(config.schemaTtl, cache);
  }
  return cache;
}

/**
 * The schema at a call's target, from the cache or fetched (one fetch per endpoint and headers while fresh);
 * `redact` hides the call's secrets in what a failure quotes of the endpoint's answer.
 */
export async function loadSchema(
  target: SchemaTarget,
  redact: (text: string) => string,
  signal?: AbortSignal,
): Promise<{ schema: IntrospectedSchema; key: string }> {
  const fromFile = fileSchema(target.api, target.endpoint);
  if (fromFile !== undefined) return { schema: fromFile, key: FILE_KEY };
  const schemas = sharedSchemaCache(target.api.config);
  const key = cacheKey(schemas, target);
  const refused = refusals.get(key);
  if (refused !== undefined) {
    if (refused.until > performance.now()) throw refused.error;
    refusals.delete(key);
  }
  const schema = await schemas.get(
    key,
    async (loadSignal) => {
      try {
        const fetched = new IntrospectedSchema(await fetchIntrospection(target, redact, loadSignal));
        // A schema that cannot be read is a failure, and failures are not kept.
        await fetched.view(false);
        return fetched;
      } catch (error) {
        if (error instanceof ToolError && lasting.has(error)) {
          // Per-call headers make new keys at will: the memory is bounded, oldest first out.
          if (refusals.size >= MAX_REFUSALS) refusals.delete(refusals.keys().next().value as string);
          refusals.set(key, { error, until: performance.now() + REFUSAL_MEMORY_MS });
        }
        throw error;
      }
    },
    signal,
  );
  return { schema, key };
}

/**
 * The schema of an API's own endpoint, fetched with its configured headers, for what needs it outside a tool
 * call (checking operation files at start-up, completing a type name); a failure's message hides every secret.
 */
export async function loadApiSchema(
  target: SchemaTarget,
  secrets: Secrets,
  signal?: AbortSignal,
): Promise<IntrospectedSchema> {
  const hide = operatorRedactor(secrets);
  try {
    return (await loadSchema(target, (text) => hide.text(text), signal)).schema;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    throw new ToolError(error.code, hide.text(error.message), { status: error.status });
  }
}

/** The schema already fetched for this target (its endpoint and headers), if it is fresh; never fetches. */
export function knownSchema(target: SchemaTarget): IntrospectedSchema | undefined {
  const fromFile = fileSchema(target.api, target.endpoint);
  if (fromFile !== undefined) return fromFile;
  const schemas = sharedSchemaCache(target.api.config);
  // Every query asks: without a schema fetched, that costs nothing.
  if (schemas.size === 0) return undefined;
  return schemas.peek(cacheKey(schemas, target));
}

/** The key a target's schema is kept by: its endpoint and the credentials it is read with. */
function cacheKey(schemas: SchemaCache<IntrospectedSchema>, target: SchemaTarget): string {
  const headers = target.headers.entries();
  const credential = target.credential;
  return schemas.keyOf(target.endpoint, credential ? [...headers, ['\0auth', credential.key]] : headers);
}

/** The key of the schema from --schema: no cache entry has it. */
const FILE_KEY = 'schema-file';

/**
 * The schema given with --schema, for the API's own endpoint (whatever headers are sent: the operator says
 * this is its schema); read once at start-up and shared by every server.
 */
function fileSchema(api: SchemaTarget['api'], endpoint: URL): IntrospectedSchema | undefined {
  if (api.schema === undefined || endpoint.href !== api.config.endpoint.href) return undefined;
  return api.schema;
}

/** The introspection result: the full query, or the basic one for servers that predate its fields. */
async function fetchIntrospection(
  target: SchemaTarget,
  redact: (text: string) => string,
  signal: AbortSignal,
): Promise<IntrospectionQuery> {
  const { endpoint } = target;
  const headers = await target.sending(signal);
  // With telemetry on, the introspection is a GraphQL operation of its own span.
  const introspect = (query: string) =>
    diagnostics.graphqlOperation.tracePromise(() => post(query), {
      type: 'query',
      name: 'IntrospectionQuery',
      api: target.api.config.name,
    });
  const post = (query: string) =>
    postGraphQL({
      endpoint,
      headers,
      operation: { query, kind: 'query' },
      // The API's way with queries (GET), never its trusted-documents rule: introspection is the server's own.
      protocol: { method: target.api.config.protocol.method },
      timeoutMs: target.api.config.timeout,
      maxBytes: MAX_INTROSPECTION_BYTES,
      signal,
      retryable: true,
      checkHop: target.checkHop,
      redact,
    }).catch((error: unknown) => {
      if (error instanceof ToolError && error.status !== undefined) {
        throw withAdvice(error, target);
      }
      throw error;
    });

  let answer = await introspect(INTROSPECTION_QUERY);
  // Older servers reject the newer introspection fields: only then is it worth asking again.
  if (introspectionOf(answer.result) === undefined && lacksNewerFields(answer.result)) {
    answer = await introspect(BASIC_INTROSPECTION_QUERY);
  }
  const introspection = introspectionOf(answer.result);
  if (introspection !== undefined) return introspection;
  throw introspectionFailure(target, answer);
}

/** INTROSPECTION_FAILED keeping the status and codes, with what to do about it. */
function introspectionFailure(
  target: SchemaTarget,
  { status, result }: { status: number; result: Record<string, unknown> },
): ToolError {
  const where = describeEndpoint(target.endpoint);
  const codes = errorCodes(result);
  const how = `HTTP ${status}${codes.length > 0 ? `, ${codes.join(', ')}` : ''}`;
  if (isAuthFailure(status, codes)) {
    return new ToolError(
      'INTROSPECTION_FAILED',
      `${where} refused introspection (${how}): ${errorMessages(result)}. ${target.credentialAdvice()}`,
    );
  }
  if (persistedAnswer(result) === 'id-required') {
    const error = new ToolError(
      'INTROSPECTION_FAILED',
      `${where} runs only its trusted documents (persisted operations) and refused the introspection query ` +
        `(${how}): ${errorMessages(result).slice(0, 300)}. Its schema cannot be read from it: the server's ` +
        'operator gives it in a file (--schema=<file>: the SDL or an introspection result).',
    );
    lasting.add(error);
    return error;
  }
  if (introspectionDisabled(result)) {
    const error = new ToolError(
      'INTROSPECTION_FAILED',
      `${where} has introspection turned off (${how}): ${errorMessages(result).slice(0, 300)}. It does ` +
        'not publish its schema. graphql_query still works: run queries whose fields you know (from ' +
        "documentation or earlier results). For schema help, the server's operator can give it the schema in a " +
        `file (--schema=<file>: the SDL or an introspection result). This answer is remembered for ` +
        `${REFUSAL_MEMORY_MS / 1000} s.`,
    );
    lasting.add(error);
    return error;
  }
  return new ToolError(
    'INTROSPECTION_FAILED',
    `${where} answered introspection with errors (${how}): ${errorMessages(result)}`,
  );
}

/** An HTTP_ERROR of an auth status, with what was and was not sent. */
export function withAdvice(error: ToolError, target: SchemaTarget): ToolError {
  if (error.status !== 401 && error.status !== 403) return error;
  return new ToolError(error.code, `${error.message}. ${target.credentialAdvice()}`, {
    status: error.status,
  });
}
