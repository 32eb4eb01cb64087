import { readFileSync } from 'node:fs';
import { cannotRead } from './files.js';
import { ConfigError } from './option-parsers.js';
import { declaration, nearName, OPTION_NAMES, type GivenValue, type OptionName } from './options.js';

// --config <file>: several named APIs in one server. The file is JSON: its top level sets the server's options
// and the defaults of every API, `apis.<name>` each API's own. Option names are those of the command line;
// values are what the option takes (a string, number or boolean; a list as an array; headers as an object), and
// `${env:NAME}` in a string is the environment variable's value, so that no secret need sit in the file. Every
// value goes through its option's parser, named by where it is: `graphql-mcp.json:7: apis.github.timeout`.

/** What an API may be called: it names tools (`github_GetIssue`) and resources (`graphql://github/schema`). */
export const API_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** The options of a config file, as given, before their parsers read them. */
export interface ConfigFile {
  readonly path: string;
  /** The top level's options: the server's, and the defaults of every API. */
  readonly top: ReadonlyMap<OptionName, GivenValue>;
  /** Each API's own options, in the file's order. */
  readonly apis: ReadonlyArray<{
    readonly name: string;
    readonly options: ReadonlyMap<OptionName, GivenValue>;
  }>;
}

/**
 * Options an API may set for itself beyond its own (scope `api`): the scopes an OAuth token needs to use that API,
 * on top of those every request needs (the top level's `oauthScopes`).
 */
const PER_API_SERVER_OPTIONS: ReadonlySet<OptionName> = new Set(['oauthScopes']);

/** Reads and checks a config file; a problem is a ConfigError naming the file, the line and the key. */
export function readConfigFile(path: string, env: NodeJS.ProcessEnv): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`--config ${cannotRead(path, error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // JSON.parse's message quotes the text around the error, which may be a token: only where it is.
    const position = /position (\d+)/.exec(String(error))?.[1];
    const where = position === undefined ? '' : ` at line ${lineAt(text, Number(position))}`;
    throw new ConfigError(`--config ${path}: not valid JSON${where}`);
  }
  const at = (keys: readonly string[]) => `${path}:${lineOfKey(text, keys)}: ${keys.join('.')}`;
  if (!isObject(parsed)) throw new ConfigError(`--config ${path}: must hold a JSON object with "apis"`);
  const top = new Map<OptionName, GivenValue>();
  let apis: Array<{ name: string; options: Map<OptionName, GivenValue> }> | undefined;
  for (const [key, value] of Object.entries(parsed)) {
    if (key === '$schema') continue;
    if (key === 'apis') {
      apis = readApis(value, at, env);
      continue;
    }
    const name = optionName(key, at([key]));
    const given = givenValue(name, value, [key], at, env);
    if (given !== undefined) top.set(name, given);
  }
  if (apis === undefined) {
    throw new ConfigError(
      `--config ${path}: names no API; add "apis": {"<name>": {"endpoint": "https://…"}}`,
    );
  }
  return { path, top, apis };
}

function readApis(
  value: unknown,
  at: (keys: readonly string[]) => string,
  env: NodeJS.ProcessEnv,
): Array<{ name: string; options: Map<OptionName, GivenValue> }> {
  if (!isObject(value) || Object.keys(value).length === 0) {
    throw new ConfigError(`${at(['apis'])} must be an object with one entry per API, e.g. {"github": {…}}`);
  }
  return Object.entries(value).map(([api, options]) => {
    if (!API_NAME.test(api)) {
      throw new ConfigError(
        `${at(['apis', api])}: an API's name is a letter, then up to 31 letters, digits, "_" or "-" (it names tools)`,
      );
    }
    if (!isObject(options)) throw new ConfigError(`${at(['apis', api])} must be an object of options`);
    const read = new Map<OptionName, GivenValue>();
    for (const [key, item] of Object.entries(options)) {
      const name = optionName(key, at(['apis', api, key]));
      if (declaration(name).scope !== 'api' && !PER_API_SERVER_OPTIONS.has(name)) {
        throw new ConfigError(
          `${at(['apis', api, key])} applies to the whole server: set it at the top level`,
        );
      }
      const given = givenValue(name, item, ['apis', api, key], at, env);
      if (given !== undefined) read.set(name, given);
    }
    return { name: api, options: read };
  });
}

/** The option a key names, or a ConfigError naming the key and the option meant. */
function optionName(key: string, where: string): OptionName {
  if ((OPTION_NAMES as readonly string[]).includes(key) && key !== 'config') return key as OptionName;
  const near = nearName(key);
  throw new ConfigError(`${where} is no option${near ? `; did you mean ${near}?` : ' (see --help)'}`);
}

/**
 * A JSON value as the text its option's parser takes: a string (its ${env:NAME} filled in), a number or boolean
 * as written, a list of strings joined by commas, headers as a JSON object, tool scopes as `tool=scopes` pairs.
 * Null counts as unset.
 */
function givenValue(
  name: OptionName,
  value: unknown,
  keys: readonly string[],
  at: (keys: readonly string[]) => string,
  env: NodeJS.ProcessEnv,
): GivenValue | undefined {
  const source = at(keys);
  const text = (item: unknown, path: readonly string[]): string => {
    if (typeof item === 'string') return expand(item, at(path), env);
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    throw new ConfigError(`${at(path)} must be a string, number or boolean`);
  };
  let written: string;
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    written = value.map((item, i) => text(item, [...keys, String(i)])).join(',');
  } else if (isObject(value) && name === 'headers') {
    written = JSON.stringify(
      Object.fromEntries(
        Object.entries(value).map(([header, item]) => [header, text(item, [...keys, header])]),
      ),
    );
  } else if (isObject(value) && name === 'oauthToolScopes') {
    written = Object.entries(value)
      .map(([tool, scopes]) => {
        const list = Array.isArray(scopes)
          ? scopes.map((scope, i) => text(scope, [...keys, tool, String(i)])).join(' ')
          : text(scopes, [...keys, tool]);
        return `${tool}=${list}`;
      })
      .join(',');
  } else if (isObject(value)) {
    throw new ConfigError(`${source} must be a string, number, boolean or list, not an object`);
  } else written = text(value, keys);
  return { value: written, source, argument: false };
}

/** `text` with each ${env:NAME} replaced by the variable's value; one that is unset or empty stops the start. */
function expand(text: string, where: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{env:([^}]*)\}/g, (_, variable: string) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
      throw new ConfigError(`${where}: \${env:…} must name an environment variable (letters, digits, "_")`);
    }
    const value = env[variable];
    if (value === undefined || value === '') {
      throw new ConfigError(`${where} uses \${env:${variable}}, which is not set`);
    }
    return value;
  });
}

/** The line a key path starts at: each key searched for after the one before it (the file parsed already). */
function lineOfKey(text: string, keys: readonly string[]): number {
  let at = 0;
  for (const key of keys) {
    const found = new RegExp(`${JSON.stringify(key).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}\\s*:`).exec(
      text.slice(at),
    );
    if (found === null) break;
    at += found.index + 1;
  }
  return lineAt(text, at);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
