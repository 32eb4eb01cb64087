// The second stage of loading the configuration: where options are given, read as given. The command line
// (node:util parseArgs and the syntax options.ts declares), the environment (each option's variable), and a
// config file (--config): JSON whose top level sets the server's options and every API's defaults, and
// `apis.<name>` each API's own, its values kept as typed as the file writes them, `${env:NAME}` filled in from
// the environment. Nothing here knows what a value means: load.ts resolves them.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { cannotRead } from '../common/files.js';
import { readAuth } from './auth.js';
import { COMMANDS, declaration, OPTION_NAMES, type OptionName, type OptionValue } from './options.js';
import { ConfigError, type Given } from './parsers.js';
import { isObject } from '../common/is-object.js';
import type { ApiAuth } from './types.js';

/** Where options are given: the command line with its environment, a level of a config file. */
export type OptionSource = (name: OptionName) => Given | undefined;

/** Options as given, read with their parsers. */
export interface OptionValues {
  given(name: OptionName): Given | undefined;
  get<N extends OptionName>(name: N): OptionValue<N>;
}

/** The options given by the first of `sources` that gives each, their defaults after that. */
export function optionValues(...sources: OptionSource[]): OptionValues {
  const given = (name: OptionName): Given | undefined => {
    for (const source of sources) {
      const value = source(name);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  return {
    given,
    get<N extends OptionName>(name: N): OptionValue<N> {
      const { parse, default: fallback } = declaration(name);
      const value =
        given(name) ??
        (fallback === undefined ? undefined : { value: fallback, source: `--${name}`, argument: false });
      return (value === undefined ? undefined : parse(value)) as OptionValue<N>;
    },
  };
}

/** What argv asks for: help, the version, or a run with these options given as arguments. */
export type CommandLine =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'options'; readonly args: ReadonlyMap<string, Given> };

/** The command line's options: an argument, else its environment variable (an empty one counts as unset). */
export function commandLineSource(args: ReadonlyMap<string, Given>, env: NodeJS.ProcessEnv): OptionSource {
  return (name) => {
    const argument = args.get(name);
    if (argument !== undefined) return argument;
    const variable = declaration(name).env;
    const value = env[variable];
    // Client configs often template variables in empty.
    return value === undefined || value === '' ? undefined : { value, source: variable, argument: false };
  };
}

/**
 * Reads argv with parseArgs, then refuses what it lets through: unknown options, a value missing, an option
 * twice, a stray argument. A message locates what it cannot be sure is no secret: `at position 3`.
 */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  const declared: Array<[string, { readonly short?: string; readonly value?: string }]> = [
    ...OPTION_NAMES.map((name) => [name, declaration(name)] as [string, { short?: string; value?: string }]),
    ...Object.entries(COMMANDS),
  ];
  for (const [name, { short, value }] of declared) {
    options[name] = { type: value === undefined ? 'boolean' : 'string', ...(short && { short }) };
  }
  const given = new Map<string, Given>();
  // A flag given without "=" just before a stray argument: "--readOnly false" meant --readOnly=false.
  let bareFlag: string | undefined;
  for (const token of tokensOf(argv, options)) {
    const position = token.index + 1;
    if (token.kind === 'option-terminator') throw noOptionName(position);
    if (token.kind === 'positional') {
      if (token.value === '-') throw noOptionName(position);
      // Never quoted: a stray argument is most often part of a value split by the shell, a token included.
      const hint =
        bareFlag === undefined
          ? "a value with spaces must be one argument, e.g. --headers='{…}'"
          : `${bareFlag} takes a value only after "=", e.g. ${bareFlag}=false`;
      throw new ConfigError(
        `unexpected argument at position ${position}: it does not start with - (${hint}); see --help`,
      );
    }
    const arg = argv[token.index]!;
    const source = token.rawName;
    // parseArgs also reads -xVALUE and -abc; we take --name, --name=value, -x and -x=value.
    if (!Object.hasOwn(options, token.name) || (arg !== source && !arg.startsWith(`${source}=`))) {
      throw unknownOption(arg, position);
    }
    const flag = options[token.name]!.type === 'boolean';
    // Of "-t=5", parseArgs takes "=5" for the value.
    let value = arg.startsWith(`${source}=`) ? arg.slice(source.length + 1) : token.value;
    bareFlag = flag && value === undefined ? source : undefined;
    if (flag) value ??= 'true';
    else if (value === undefined || (token.inlineValue === false && value.startsWith('--'))) {
      throw new ConfigError(`${source} needs a value; see --help`);
    }
    if (given.has(token.name)) throw new ConfigError(`--${token.name} is given more than once`);
    given.set(token.name, { value, source, argument: true });
  }
  if (given.has('help')) return { kind: 'help' };
  if (given.has('version')) return { kind: 'version' };
  return { kind: 'options', args: given };
}

type ArgToken =
  | { kind: 'option'; index: number; name: string; rawName: string; value?: string; inlineValue?: boolean }
  | { kind: 'positional'; index: number; value: string }
  | { kind: 'option-terminator'; index: number };

/**
 * parseArgs' tokens, not strict: its errors quote the argument (part of a token, perhaps) and refuse `-m -1`,
 * whose range we report. It reads "-h=x" as the short options -h, -= and -x and numbers the arguments after
 * such a group wrongly, so the arguments after one are parsed anew.
 */
function* tokensOf(argv: readonly string[], options: ParseArgsConfig['options']): Generator<ArgToken> {
  let start = 0;
  do {
    const args = argv.slice(start);
    const offset = start;
    start = argv.length;
    for (const token of parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true })
      .tokens) {
      const index = offset + token.index;
      yield { ...token, index };
      if (token.kind === 'option' && token.rawName.length === 2 && argv[index]!.length > 2) {
        start = index + 1;
        break;
      }
    }
  } while (start < argv.length);
}

function noOptionName(position: number): ConfigError {
  return new ConfigError(
    `unexpected argument at position ${position}: a dash without an option name; see --help`,
  );
}

function unknownOption(raw: string, position: number): ConfigError {
  const [, dashes, key] = /^(--?)([^=]*)/.exec(raw)!;
  if (key === '') return noOptionName(position);
  const near = nearName(key!, [...OPTION_NAMES, ...Object.keys(COMMANDS)]);
  const hint = near ? `; did you mean --${near}?` : '; see --help';
  // A name is shown; anything else (digits, symbols, a long run) may be a value that starts with a dash.
  const shown = /^[A-Za-z][A-Za-z_-]{0,29}$/.test(key!)
    ? `${dashes}${key}`
    : `at position ${position} (not shown: it does not look like an option name)`;
  return new ConfigError(`unknown option ${shown}${hint}`);
}

/** The name a near miss such as max-complexity or readonly means, to suggest the right spelling. */
function nearName(key: string, names: readonly string[] = OPTION_NAMES): string | undefined {
  const squash = (text: string) => text.replace(/[-_]/g, '').toLowerCase();
  return names.find((name) => squash(name) === squash(key));
}

/** What an API may be called: it names tools (`github_GetIssue`) and resources (`graphql://github/schema`). */
const API_NAME_SYNTAX = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** A config file's options, as given, before their parsers read them. */
export interface ConfigFile {
  readonly path: string;
  /** The top level's options: the server's, and the defaults of every API. */
  readonly top: ReadonlyMap<OptionName, Given>;
  /** Each API's own options, in the file's order, and its `auth` (a file's setting only: config/auth.ts). */
  readonly apis: ReadonlyArray<{
    readonly name: string;
    readonly options: ReadonlyMap<OptionName, Given>;
    readonly auth: ApiAuth | undefined;
  }>;
  /** Every value `${env:…}` filled in: none may appear in a message. */
  readonly fromEnvironment: readonly string[];
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
  if (!isObject(parsed)) throw new ConfigError(`--config ${path}: must hold a JSON object with "apis"`);
  const fromEnvironment: string[] = [];
  const reader = {
    at: (keys: readonly string[]) => `${path}:${lineOfKey(text, keys)}: ${keys.join('.')}`,
    expand: (value: unknown, keys: readonly string[]) =>
      expanded(value, keys, reader.at, env, fromEnvironment),
  };
  const top = new Map<OptionName, Given>();
  let apis: ConfigFile['apis'] | undefined;
  for (const [key, value] of Object.entries(parsed)) {
    if (key === '$schema') continue;
    if (key === 'apis') {
      apis = readApis(value, reader);
      continue;
    }
    if (key === 'auth') throw new ConfigError(`${reader.at([key])} is set per API: apis.<name>.auth`);
    const name = optionName(key, reader.at([key]));
    const given = givenValue(value, [key], reader);
    if (given !== undefined) top.set(name, given);
  }
  if (apis === undefined) {
    throw new ConfigError(
      `--config ${path}: names no API; add "apis": {"<name>": {"endpoint": "https://…"}}`,
    );
  }
  return { path, top, apis, fromEnvironment };
}

interface Reader {
  /** Where a key path is: `file:line: apis.github.timeout`. */
  at(keys: readonly string[]): string;
  /** A value with its `${env:…}` filled in, and how it was written where anything was. */
  expand(value: unknown, keys: readonly string[]): Expanded;
}

function readApis(value: unknown, reader: Reader): ConfigFile['apis'] {
  if (!isObject(value) || Object.keys(value).length === 0) {
    throw new ConfigError(
      `${reader.at(['apis'])} must be an object with one entry per API, e.g. {"github": {…}}`,
    );
  }
  return Object.entries(value).map(([api, options]) => {
    if (!API_NAME_SYNTAX.test(api)) {
      throw new ConfigError(
        `${reader.at(['apis', api])}: an API's name is a letter, then up to 31 letters, digits, "_" or "-" (it names tools)`,
      );
    }
    if (!isObject(options)) throw new ConfigError(`${reader.at(['apis', api])} must be an object of options`);
    const read = new Map<OptionName, Given>();
    let auth: ApiAuth | undefined;
    for (const [key, item] of Object.entries(options)) {
      if (key === 'auth') {
        auth = item === null ? undefined : readAuth(item, ['apis', api, key], reader);
        continue;
      }
      const name = optionName(key, reader.at(['apis', api, key]));
      if (declaration(name).scope !== 'api' && !PER_API_SERVER_OPTIONS.has(name)) {
        throw new ConfigError(
          `${reader.at(['apis', api, key])} applies to the whole server: set it at the top level`,
        );
      }
      const given = givenValue(item, ['apis', api, key], reader);
      if (given !== undefined) read.set(name, given);
    }
    return { name: api, options: read, auth };
  });
}

/** The option a key names, or a ConfigError naming the key and the option meant. */
function optionName(key: string, where: string): OptionName {
  if ((OPTION_NAMES as readonly string[]).includes(key) && key !== 'config') return key as OptionName;
  const near = nearName(key);
  throw new ConfigError(`${where} is no option${near ? `; did you mean ${near}?` : ' (see --help)'}`);
}

/** A file's value as given, its `${env:…}` filled in; null counts as unset. */
function givenValue(value: unknown, keys: readonly string[], reader: Reader): Given | undefined {
  if (value === null) return undefined;
  return { ...reader.expand(value, keys), source: reader.at(keys), argument: false };
}

/**
 * `value` with each `${env:NAME}` in its strings (at any depth) replaced by the variable's value; one that is
 * unset or empty stops the start. Records each value filled in, and the value as written where one was.
 */
function expanded(
  value: unknown,
  keys: readonly string[],
  at: (keys: readonly string[]) => string,
  env: NodeJS.ProcessEnv,
  fromEnvironment: string[],
): Expanded {
  const filledIn: string[] = [];
  const expand = (item: unknown, path: readonly string[]): unknown => {
    // Walked recursively: a value thousands of levels deep would end the start with a bare stack overflow.
    if (path.length - keys.length >= MAX_VALUE_LEVELS && typeof item === 'object' && item !== null) {
      throw new ConfigError(
        `${at(path.slice(0, keys.length + 1))} nests more than ${MAX_VALUE_LEVELS} levels of objects and arrays, more than any option's value may`,
      );
    }
    if (typeof item === 'string') {
      return item.replace(/\$\{env:([^}]*)\}/g, (_, variable: string) => {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
          throw new ConfigError(
            `${at(path)}: \${env:…} must name an environment variable (letters, digits, "_")`,
          );
        }
        const text = env[variable];
        if (text === undefined || text === '')
          throw new ConfigError(`${at(path)} uses \${env:${variable}}, which is not set`);
        filledIn.push(text);
        fromEnvironment.push(text);
        return text;
      });
    }
    if (Array.isArray(item)) return item.map((entry, i) => expand(entry, [...path, String(i)]));
    if (isObject(item))
      return Object.fromEntries(
        Object.entries(item).map(([key, entry]) => [key, expand(entry, [...path, key])]),
      );
    return item;
  };
  const result = expand(value, keys);
  return filledIn.length > 0
    ? { value: result, written: typeof value === 'string' ? value : JSON.stringify(value), filledIn }
    : { value: result };
}

/** Most levels of objects and arrays an option's value may nest in a config file (a scalar's schema nests most). */
const MAX_VALUE_LEVELS = 64;

/** A value with its `${env:…}` filled in, how it was written, and what was filled in (where anything was). */
type Expanded = Pick<Given, 'value' | 'written' | 'filledIn'>;

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
