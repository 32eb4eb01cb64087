// What each option's value may be: one parser per kind of value, from the value as given to the typed value, or a
// ConfigError that names where the value came from. A value comes as text (the command line, the environment) or
// typed as a config file writes it (a number, a boolean, a list, an object): each parser takes both, and the
// file's values are never turned back into text. options.ts says which option takes which parser.
import { ambiguousPath, describeEndpoint, EndpointError, parseEndpoint } from '../http/endpoint.js';
import { HeaderError, HeaderSet } from '../http/headers.js';
import { ordinal } from '../common/text.js';
import type { PersistedProtocol } from '../http/persisted.js';
import { scalarTypes, ScalarsError, type Scalars } from '../operations/scalars.js';
import {
  BUILT_IN_TOOLS,
  MUTATION_POLICIES,
  type BuiltInTool,
  type MutationPolicy,
  type ValidateMode,
} from './types.js';
import { isObject } from '../common/is-object.js';

/** A bad startup value: reported as one line on stderr, exit code 2. Never holds a secret. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** An option's value as given, and where. */
export interface Given {
  /** Text from the command line or the environment; a JSON value from a config file. */
  readonly value: unknown;
  /** Where: `--timeout`, `-t`, `GRAPHQL_TIMEOUT`, `graphql-mcp.json:7: apis.github.timeout`. */
  readonly source: string;
  /** Given as a command-line argument (not the environment, a file or a default). */
  readonly argument: boolean;
  /**
   * The value as written before `${env:…}` was filled in, where it was: a message shows this, never the value,
   * which may be a credential kept in the environment.
   */
  readonly written?: string;
  /** The values `${env:…}` filled in, where any was: secrets wherever the value is shown. */
  readonly filledIn?: readonly string[];
}

/** Reads one option's value. */
export type Parser<T> = (given: Given) => T;

export const MAX_TIMEOUT_MS = 600_000;
/** The signing key of what travels through clients: what the SDK's HMAC codec asks for (256 bits). */
const MIN_STATE_KEY_LENGTH = 32;
/** A bearer token shorter than this could be guessed. */
const MIN_TOKEN_LENGTH = 16;
/** Below this an overview of a large schema cannot say anything useful. */
export const MIN_SCHEMA_CHARS = 1_000;

/** `, got "…"`: the value as written (its `${env:…}` unexpanded), at most `max` characters of it. */
function got(given: Given, max = 40): string {
  const shown =
    given.written ?? (typeof given.value === 'string' ? given.value : JSON.stringify(given.value));
  return `, got ${JSON.stringify(String(shown).slice(0, max))}`;
}

/** The value as text: a string as given; a number or boolean of a file as written. */
function textOf(given: Given, expected: string): string {
  const { value } = given;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ConfigError(`${given.source} must be ${expected}`);
}

/** The entries of a list: a file's array of strings, or comma-separated text; non-empty and trimmed. */
function listOf(given: Given, expected: string): string[] {
  const { value } = given;
  const items = Array.isArray(value) ? value : textOf(given, expected).split(',');
  return items
    .map((item, i) => {
      if (typeof item !== 'string')
        throw new ConfigError(`${given.source}: the ${ordinal(i + 1)} entry must be a string`);
      return item.trim();
    })
    .filter((item) => item !== '');
}

/** A whole number from `min` to `max`. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  return (given) => {
    const { value } = given;
    const number =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())
          ? Number(value.trim())
          : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
      throw new ConfigError(`${given.source} must be a whole number ${range}${got(given)}`);
    }
    return number;
  };
}

export function readBoolean(given: Given): boolean {
  if (typeof given.value === 'boolean') return given.value;
  const lower = textOf(given, 'true or false').trim().toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new ConfigError(`${given.source} must be true, false, 1 or 0${got(given)}`);
}

export function readUrl(given: Given): URL {
  try {
    return parseEndpoint(textOf(given, 'an http(s) URL'));
  } catch (error) {
    // The URL parser's message may quote the value: a value from the environment is located, not quoted.
    if (error instanceof EndpointError) {
      const message =
        given.written === undefined ? error.message : 'must be an absolute http(s) URL without user-info';
      throw new ConfigError(`${given.source} ${message}`);
    }
    throw error;
  }
}

export function readUrlList(given: Given): URL[] {
  const entries = listOf(given, 'a list of http(s) URLs');
  if (entries.length === 0)
    throw new ConfigError(`${given.source} must be a comma-separated list of http(s) URLs`);
  return entries.map((entry) => {
    const url = readUrl({ ...given, value: entry });
    // An entry whose path a server may read as another could never be matched safely.
    const problem = ambiguousPath(url);
    if (problem !== undefined) {
      throw new ConfigError(`${given.source}: the entry ${describeEndpoint(url)} cannot be used: ${problem}`);
    }
    return url;
  });
}

/** Never quotes the value: it holds credentials, and JSON.parse's messages quote their input. */
export function readHeaders(given: Given): HeaderSet {
  const example = 'a JSON object such as {"Authorization":"Bearer <token>"}';
  let parsed = given.value;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch (error) {
      const position = /position (\d+)/.exec(String(error))?.[1];
      const where = position === undefined ? '' : ` (error at character ${position})`;
      throw new ConfigError(`${given.source} must be ${example}; it is not valid JSON${where}`);
    }
  }
  if (!isObject(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new ConfigError(`${given.source} must be ${example}, got ${kind}`);
  }
  try {
    return HeaderSet.of(parsed as Record<string, unknown>);
  } catch (error) {
    if (error instanceof HeaderError) throw new ConfigError(`${given.source}: ${error.message}`);
    throw error;
  }
}

export function readMutationPolicy(given: Given): MutationPolicy {
  const policy = textOf(given, MUTATION_POLICIES.join(', ')).trim().toLowerCase() as MutationPolicy;
  if (!MUTATION_POLICIES.includes(policy)) {
    throw new ConfigError(`${given.source} must be ${MUTATION_POLICIES.join(', ')}${got(given, 20)}`);
  }
  return policy;
}

export function readValidateMode(given: Given): ValidateMode {
  const mode = textOf(given, 'cached, always or off').trim().toLowerCase();
  if (mode === 'cached' || mode === 'always' || mode === 'off') return mode;
  throw new ConfigError(`${given.source} must be cached, always or off${got(given, 20)}`);
}

export function readPath(given: Given): string {
  const path = textOf(given, 'a file path').trim();
  if (path === '') throw new ConfigError(`${given.source} must be a file path`);
  return path;
}

export function readPathList(given: Given): string[] {
  const paths = listOf(given, 'a list of files or directories');
  if (paths.length === 0)
    throw new ConfigError(`${given.source} must be a comma-separated list of files or directories`);
  return paths;
}

export function readTools(given: Given): BuiltInTool[] {
  const names = listOf(given, `none or a list of ${BUILT_IN_TOOLS.join(', ')}`);
  if (names.length === 1 && names[0] === 'none') return [];
  const unknown = names.find((name) => !(BUILT_IN_TOOLS as readonly string[]).includes(name));
  if (names.length === 0 || unknown !== undefined) {
    const shown = unknown !== undefined && /^[\w-]{1,40}$/.test(unknown) ? ` (${unknown} is not one)` : '';
    throw new ConfigError(
      `${given.source} must be none or a comma-separated list of ${BUILT_IN_TOOLS.join(', ')}${shown}`,
    );
  }
  return BUILT_IN_TOOLS.filter((tool) => names.includes(tool));
}

export function readTransport(given: Given): 'stdio' | 'http' {
  const value = textOf(given, 'stdio or http');
  if (value === 'stdio' || value === 'http') return value;
  throw new ConfigError(`${given.source} must be stdio or http${got(given, 20)}`);
}

export function readHost(given: Given): string {
  const host = textOf(given, 'a host name').trim();
  if (!/^[A-Za-z0-9.\-:[\]]+$/.test(host)) {
    throw new ConfigError(`${given.source} must be a host name or IP address${got(given, 60)}`);
  }
  return host;
}

export function readHostList(given: Given): string[] {
  const names = listOf(given, 'a list of host names, or *').map((name) => name.toLowerCase());
  if (names.length === 0)
    throw new ConfigError(`${given.source} must be a comma-separated list of host names, or *`);
  for (const name of names) if (name !== '*') readHost({ ...given, value: name });
  return names;
}

/** Never quotes the value: it is a credential. */
export function readToken(given: Given): string {
  const value = textOf(given, 'a token');
  if (value.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(
      `${given.source} must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces (e.g. from: openssl rand -hex 32)`,
    );
  }
  return value;
}

/** Never quotes the value: it is a secret. */
export function readStateKey(given: Given): string {
  const value = textOf(given, 'a secret');
  if (value.length < MIN_STATE_KEY_LENGTH) {
    throw new ConfigError(
      `${given.source} must be at least ${MIN_STATE_KEY_LENGTH} characters (e.g. from: openssl rand -hex 32)`,
    );
  }
  return value;
}

export function readForwardHeaders(given: Given): Array<{ from: string; to: string }> {
  const entries = listOf(given, 'a list of header names');
  if (entries.length === 0)
    throw new ConfigError(`${given.source} must be a comma-separated list of header names`);
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
        `${given.source}: the ${ordinal(index + 1)} entry: ${problem}; expected Name or Incoming:Outgoing`,
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
export function readSecureUrl(given: Given): URL {
  let url: URL;
  try {
    url = new URL(textOf(given, 'a URL').trim());
  } catch {
    throw new ConfigError(`${given.source} must be a URL, e.g. https://auth.example.com`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new ConfigError(`${given.source} must be an https URL (http only on a loopback host)`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new ConfigError(`${given.source} must be a URL without user-info, query or fragment`);
  }
  return url;
}

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Scopes: a file's list, or text separated by commas or spaces. */
export function readScopes(given: Given): string[] {
  const scopes = Array.isArray(given.value)
    ? listOf(given, 'a list of scopes')
    : textOf(given, 'scopes')
        .split(/[\s,]+/)
        .filter((scope) => scope !== '');
  if (scopes.length === 0 || !scopes.every((scope) => SCOPE.test(scope))) {
    throw new ConfigError(
      `${given.source} must be scopes separated by commas or spaces, e.g. mcp:use,api:read`,
    );
  }
  return scopes;
}

/**
 * Each tool and the scopes it needs: text such as `graphql_query=api:write,GetBook=books:read books:list`, or a
 * file's object of tool names to a scope, a space-separated list of them, or a list.
 */
export function readToolScopes(given: Given): Map<string, string[]> {
  const { value } = given;
  const entries: Array<[string, unknown]> = isObject(value)
    ? Object.entries(value)
    : listOf(given, 'tool=scope entries').map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      });
  const map = new Map<string, string[]>();
  for (const [tool, scopes] of entries) {
    const list = Array.isArray(scopes)
      ? scopes.filter((scope): scope is string => typeof scope === 'string')
      : typeof scopes === 'string'
        ? scopes.split(/\s+/).filter((scope) => scope !== '')
        : [];
    if (
      !/^[A-Za-z0-9_.-]{1,128}$/.test(tool) ||
      list.length === 0 ||
      !list.every((scope) => SCOPE.test(scope))
    ) {
      throw new ConfigError(
        `${given.source} must be tool=scope entries separated by commas, e.g. graphql_query=api:write`,
      );
    }
    map.set(tool, list);
  }
  return map;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export const PERSISTED_MODES = ['off', 'apollo', 'documentId', 'doc_id'] as const;

/** How a manifest's operations are sent by id; `off` (undefined) sends every document whole. */
export function readPersisted(given: Given): PersistedProtocol | undefined {
  const mode = textOf(given, PERSISTED_MODES.join(', ')).trim();
  if (!(PERSISTED_MODES as readonly string[]).includes(mode)) {
    throw new ConfigError(`${given.source} must be ${PERSISTED_MODES.join(', ')}${got(given, 20)}`);
  }
  return mode === 'off' ? undefined : (mode as PersistedProtocol);
}

export function readQueryMethod(given: Given): 'auto' | 'get' | 'post' {
  const method = textOf(given, 'auto, get or post').trim().toLowerCase();
  if (method === 'auto' || method === 'get' || method === 'post') return method;
  throw new ConfigError(`${given.source} must be auto, get or post${got(given, 20)}`);
}

/** Custom scalars: a JSON object (or its text) of scalar names to the JSON Schema of their values. */
export function readScalars(given: Given): Scalars {
  let value = given.value;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new ConfigError(
        `${given.source} must be a JSON object of scalar names to JSON Schemas; it is not valid JSON`,
      );
    }
  }
  if (!isObject(value)) {
    throw new ConfigError(
      `${given.source} must be a JSON object of scalar names to JSON Schemas, e.g. {"Money":{"type":"string"}}`,
    );
  }
  try {
    return scalarTypes(value as Record<string, unknown>);
  } catch (error) {
    if (error instanceof ScalarsError) throw new ConfigError(`${given.source}: ${error.message}`);
    throw error;
  }
}

/** A Redis (or Valkey) URL. Never quotes the value: it may hold a password. */
export function readStoreUrl(given: Given): URL {
  let url: URL;
  try {
    url = new URL(textOf(given, 'a redis:// URL').trim());
  } catch {
    throw new ConfigError(`${given.source} must be a URL such as redis://127.0.0.1:6379/0`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`${given.source} must be a redis:// or rediss:// URL (Redis 7 or Valkey)`);
  }
  return url;
}
