// What each option's value may be: one parser per kind of value, text → typed value, or a ConfigError that names
// where the value came from (`source`: `--timeout`, `-t`, `GRAPHQL_TIMEOUT`). src/options.ts says which option
// takes which parser.
import { HeaderError, HeaderSet, ordinal } from './http/headers.js';
import { ambiguousPath, describeEndpoint, EndpointError, parseEndpoint } from './http/endpoint.js';

/** A bad startup value: reported as one line on stderr, exit code 2. Never holds a header value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads one option's value; `source` names where it came from, for the message of a bad one. */
export type Parser<T> = (value: string, source: string) => T;

export const BUILT_IN_TOOLS = ['graphql_query', 'graphql_introspect'] as const;
export type BuiltInTool = (typeof BUILT_IN_TOOLS)[number];

/**
 * Who decides a mutation that the model allowed (`allowMutations: true`): `confirm` asks the user through the
 * client when the client can ask, and lets the model's word stand when it cannot; `require-confirm` refuses where
 * nobody can be asked; `allow` never asks; `deny` refuses every mutation (what --readOnly means).
 */
export type MutationPolicy = 'confirm' | 'require-confirm' | 'allow' | 'deny';
export const MUTATION_POLICIES: readonly MutationPolicy[] = ['confirm', 'require-confirm', 'allow', 'deny'];

/**
 * `cached`: when the endpoint's schema is known (fetched within --schemaTtl); `always`: fetch it first when
 * it is not; `off`: never.
 */
export type ValidateMode = 'cached' | 'always' | 'off';

export const MAX_TIMEOUT_MS = 600_000;
/** The signing key of a question's state: what the SDK's HMAC codec asks for (256 bits). */
export const MIN_STATE_KEY_LENGTH = 32;
/** A bearer token shorter than this could be guessed. */
export const MIN_TOKEN_LENGTH = 16;
/** Below this an overview of a large schema cannot say anything useful. */
export const MIN_SCHEMA_CHARS = 1_000;

/** A whole number from `min` to `max`. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  return (value, source) => {
    const trimmed = value.trim();
    const number = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
      throw new ConfigError(
        `${source} must be a whole number ${range}, got ${JSON.stringify(value.slice(0, 40))}`,
      );
    }
    return number;
  };
}

export function readBoolean(value: string, source: string): boolean {
  const lower = value.trim().toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new ConfigError(`${source} must be true, false, 1 or 0, got ${JSON.stringify(value.slice(0, 40))}`);
}

export function readUrl(value: string, source: string): URL {
  try {
    return parseEndpoint(value);
  } catch (error) {
    if (error instanceof EndpointError) throw new ConfigError(`${source} ${error.message}`);
    throw error;
  }
}

export function readUrlList(value: string, source: string): URL[] {
  const entries = commaList(value);
  if (entries.length === 0) {
    throw new ConfigError(`${source} must be a comma-separated list of http(s) URLs`);
  }
  return entries.map((entry) => {
    const url = readUrl(entry, source);
    // An entry whose path a server may read as another could never be matched safely.
    const problem = ambiguousPath(url);
    if (problem !== undefined) {
      throw new ConfigError(`${source}: the entry ${describeEndpoint(url)} cannot be used: ${problem}`);
    }
    return url;
  });
}

/** Never quotes the value: it holds credentials, and JSON.parse's messages quote their input. */
export function readHeaders(value: string, source: string): HeaderSet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    const position = /position (\d+)/.exec(String(error))?.[1];
    const where = position === undefined ? '' : ` (error at character ${position})`;
    throw new ConfigError(
      `${source} must be a JSON object such as {"Authorization":"Bearer <token>"}; it is not valid JSON${where}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new ConfigError(
      `${source} must be a JSON object such as {"Authorization":"Bearer <token>"}, got ${kind}`,
    );
  }
  let headers: HeaderSet;
  try {
    headers = HeaderSet.of(parsed as Record<string, unknown>);
  } catch (error) {
    if (error instanceof HeaderError) throw new ConfigError(`${source}: ${error.message}`);
    throw error;
  }
  return headers;
}

export function readMutationPolicy(value: string, source: string): MutationPolicy {
  const policy = value.trim().toLowerCase() as MutationPolicy;
  if (!MUTATION_POLICIES.includes(policy)) {
    throw new ConfigError(
      `${source} must be ${MUTATION_POLICIES.join(', ')}, got ${JSON.stringify(value.slice(0, 20))}`,
    );
  }
  return policy;
}

export function readValidateMode(value: string, source: string): ValidateMode {
  const mode = value.trim().toLowerCase();
  if (mode === 'cached' || mode === 'always' || mode === 'off') return mode;
  throw new ConfigError(`${source} must be cached, always or off, got ${JSON.stringify(value.slice(0, 20))}`);
}

export function readPath(value: string, source: string): string {
  const path = value.trim();
  if (path === '') throw new ConfigError(`${source} must be a file path`);
  return path;
}

export function readPathList(value: string, source: string): string[] {
  const paths = commaList(value);
  if (paths.length === 0)
    throw new ConfigError(`${source} must be a comma-separated list of files or directories`);
  return paths;
}

export function readTools(value: string, source: string): BuiltInTool[] {
  const names = commaList(value);
  if (names.length === 1 && names[0] === 'none') return [];
  const unknown = names.find((name) => !(BUILT_IN_TOOLS as readonly string[]).includes(name));
  if (names.length === 0 || unknown !== undefined) {
    const shown = unknown !== undefined && /^[\w-]{1,40}$/.test(unknown) ? ` (${unknown} is not one)` : '';
    throw new ConfigError(
      `${source} must be none or a comma-separated list of ${BUILT_IN_TOOLS.join(', ')}${shown}`,
    );
  }
  return BUILT_IN_TOOLS.filter((tool) => names.includes(tool));
}

export function readTransport(value: string, source: string): 'stdio' | 'http' {
  if (value === 'stdio' || value === 'http') return value;
  throw new ConfigError(`${source} must be stdio or http, got ${JSON.stringify(value.slice(0, 20))}`);
}

export function readHost(value: string, source: string): string {
  const host = value.trim();
  if (!/^[A-Za-z0-9.\-:[\]]+$/.test(host)) {
    throw new ConfigError(
      `${source} must be a host name or IP address, got ${JSON.stringify(value.slice(0, 60))}`,
    );
  }
  return host;
}

export function readHostList(value: string, source: string): string[] {
  const names = commaList(value).map((name) => name.toLowerCase());
  if (names.length === 0)
    throw new ConfigError(`${source} must be a comma-separated list of host names, or *`);
  for (const name of names) if (name !== '*') readHost(name, source);
  return names;
}

/** Never quotes the value: it is a credential. */
export function readToken(value: string, source: string): string {
  if (value.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(
      `${source} must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces (e.g. from: openssl rand -hex 32)`,
    );
  }
  return value;
}

/** Never quotes the value: it is a secret. */
export function readStateKey(value: string, source: string): string {
  if (value.length < MIN_STATE_KEY_LENGTH) {
    throw new ConfigError(
      `${source} must be at least ${MIN_STATE_KEY_LENGTH} characters (e.g. from: openssl rand -hex 32)`,
    );
  }
  return value;
}

export function readForwardHeaders(value: string, source: string): Array<{ from: string; to: string }> {
  const entries = commaList(value);
  if (entries.length === 0) throw new ConfigError(`${source} must be a comma-separated list of header names`);
  return entries.map((entry, index) => {
    const [from = '', to = from, ...rest] = entry.split(':').map((name) => name.trim());
    // "X-Api-Key: sk-…" is a header with its value, pasted where names go: the value would become a name.
    const problem =
      rest.length > 0
        ? 'it has more than one ":"'
        : /:\s/.test(entry)
          ? 'it reads like "Name: value" (a header with its value); this option takes names only, without spaces around ":" (values go in --headers or come with each request)'
          : (nameProblem(from, 'its incoming name') ?? nameProblem(to, 'its outgoing name'));
    // Located, not quoted: an entry that is no header name may be a header value ("X-Api-Key: sk-…").
    if (problem !== undefined) {
      throw new ConfigError(
        `${source}: the ${ordinal(index + 1)} entry: ${problem}; expected Name or Incoming:Outgoing`,
      );
    }
    return { from, to };
  });
}

/** What is wrong with a header name, if anything (described by `position`, never quoted). */
function nameProblem(name: string, position: string): string | undefined {
  try {
    new HeaderSet().set(name, 'x', position);
    return undefined;
  } catch (error) {
    if (error instanceof HeaderError) return error.message;
    throw error;
  }
}

/** An https URL (http only on a loopback host, for local setups and tests). */
export function readSecureUrl(value: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(`${source} must be a URL, e.g. https://auth.example.com`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new ConfigError(`${source} must be an https URL (http only on a loopback host)`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new ConfigError(`${source} must be a URL without user-info, query or fragment`);
  }
  return url;
}

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export function readScopes(value: string, source: string): string[] {
  const scopes = value.split(/[\s,]+/).filter((scope) => scope !== '');
  if (scopes.length === 0 || !scopes.every((scope) => SCOPE.test(scope))) {
    throw new ConfigError(`${source} must be scopes separated by commas or spaces, e.g. mcp:use,api:read`);
  }
  return scopes;
}

/** `graphql_query=api:write,GetBook=books:read books:list`: each entry a tool and the scopes it needs. */
export function readToolScopes(value: string, source: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const entry of commaList(value)) {
    const match = /^([A-Za-z0-9_.-]{1,128})=(.+)$/.exec(entry);
    const scopes = match?.[2]!.split(/\s+/).filter((scope) => scope !== '') ?? [];
    if (match === null || scopes.length === 0 || !scopes.every((scope) => SCOPE.test(scope))) {
      throw new ConfigError(
        `${source} must be tool=scope entries separated by commas, e.g. graphql_query=api:write`,
      );
    }
    map.set(match[1]!, scopes);
  }
  return map;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The non-empty, trimmed entries of a comma-separated value. */
function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
