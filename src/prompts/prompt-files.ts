// --prompts: the operator's own prompts, one Markdown file each, read at start-up. The format is that of
// Apollo MCP Server's prompt files, so that theirs work here too, with less required:
//
//   ---                                   optional front matter, a small subset of YAML:
//   name: check_orders                    the prompt's name (default: the file name without .md)
//   title: Check orders                   shown by clients that show titles
//   description: Sum up recent orders     (default: a first line "# …" of the text, which is then left out)
//   arguments:                            (default: each {{placeholder}} of the text, required)
//     - name: email
//       description: The customer's email
//       required: true                    (default: false)
//   ---
//   Find the orders of {{email}} with …   the text: {{argument}} placeholders take the values given
//
// Any problem stops the start with one line naming the file (and the line, in the front matter).
import { readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { cannotRead, filesAt } from '../common/files.js';
import { PROMPT_NAME, type PromptArgument, type PromptDefinition } from './prompt.js';

/** A problem with the prompt files: one line, naming the file. */
export class PromptsError extends Error {
  override readonly name = 'PromptsError';
}

/** Larger files are refused: a prompt is a short text, and clients list every prompt. */
const MAX_PROMPT_FILE_BYTES = 64 * 1024;
const EXTENSIONS = new Set(['.md']);
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const TOP_KEYS = ['name', 'title', 'description', 'arguments'] as const;
const ARGUMENT_KEYS = ['name', 'description', 'required'] as const;

/** Reads every .md file of these files and directories (recursively) as a prompt; names must be unique. */
export function loadPromptFiles(paths: readonly string[], reserved: readonly string[]): PromptDefinition[] {
  const files = paths.flatMap((path) => filesAt(path, EXTENSIONS, (message) => new PromptsError(message)));
  if (files.length === 0) throw new PromptsError(`${paths.join(', ')}: no .md files found`);
  const byName = new Map<string, string>();
  return files.map((file) => {
    const prompt = parsePromptFile(file, readText(file));
    if (reserved.includes(prompt.name)) {
      throw new PromptsError(`${file}: ${prompt.name} is the name of a built-in prompt; choose another`);
    }
    const known = byName.get(prompt.name);
    if (known !== undefined) {
      throw new PromptsError(`${file}: the prompt name ${prompt.name} is used twice (also by ${known})`);
    }
    byName.set(prompt.name, file);
    return prompt;
  });
}

/** One prompt file's text as a prompt; `file` names it in messages and gives the default name. */
export function parsePromptFile(file: string, raw: string): PromptDefinition {
  const lines = raw
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  let front: FrontMatter = {};
  let bodyLines = lines;
  if (lines[0]?.trimEnd() === '---') {
    const end = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
    if (end === -1)
      throw new PromptsError(`${file}:1: the front matter opened by --- is not closed by a --- line`);
    front = readFrontMatter(file, lines.slice(1, end), 2);
    bodyLines = lines.slice(end + 1);
  }
  while (bodyLines.length > 0 && bodyLines[0]!.trim() === '') bodyLines = bodyLines.slice(1);
  let description = front.description;
  const heading = /^#\s+(.+?)\s*#*\s*$/.exec(bodyLines[0] ?? '');
  if (description === undefined && heading !== null) {
    description = heading[1]!;
    bodyLines = bodyLines.slice(1);
  }
  const body = bodyLines.join('\n').trim();
  if (body === '') throw new PromptsError(`${file}: holds no prompt text`);

  const name = front.name ?? basename(file, extname(file));
  if (!PROMPT_NAME.test(name)) {
    throw new PromptsError(
      `${file}: the prompt name must be 1 to 128 letters, digits, _, - or . (name it in the front matter, name: …)`,
    );
  }
  const used = [...new Set([...body.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
  let args: readonly PromptArgument[];
  if (front.arguments === undefined) {
    args = used.map((argument) => ({ name: argument, required: true }));
  } else {
    args = front.arguments;
    const declared = new Set(args.map((argument) => argument.name));
    const undeclared = used.find((argument) => !declared.has(argument));
    if (undeclared !== undefined) {
      throw new PromptsError(`${file}: the text uses {{${undeclared}}}, which arguments does not declare`);
    }
    const unused = args.find((argument) => !used.includes(argument.name));
    if (unused !== undefined) {
      throw new PromptsError(
        `${file}: the argument ${unused.name} is declared but the text has no {{${unused.name}}}`,
      );
    }
  }
  return {
    name,
    ...(front.title !== undefined && { title: front.title }),
    ...(description !== undefined && { description }),
    arguments: args,
    // One pass: a value that holds {{…}} is not read again.
    render: (values) => body.replace(PLACEHOLDER, (_, argument: string) => values[argument] ?? ''),
  };
}

interface FrontMatter {
  name?: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

/** The front matter's lines (`first` is the file's line number of the first): `key: value` and one list. */
function readFrontMatter(file: string, lines: readonly string[], first: number): FrontMatter {
  const front: FrontMatter = {};
  const seen = new Set<string>();
  let items: Array<{ line: number; fields: Map<string, string> }> | undefined;
  let inArguments = false;
  lines.forEach((line, index) => {
    const at = first + index;
    const fail = (problem: string) => new PromptsError(`${file}:${at}: ${problem}`);
    if (/^\s*(#.*)?$/.test(line)) return;
    const item = /^\s*-\s+([A-Za-z_]+):(.*)$/.exec(line);
    const top = /^([A-Za-z_]+):(.*)$/.exec(line);
    const member = /^\s+([A-Za-z_]+):(.*)$/.exec(line);
    if (item !== null && inArguments) {
      items!.push({ line: at, fields: new Map() });
      setField(items!.at(-1)!.fields, item[1]!, item[2]!, ARGUMENT_KEYS, 'an argument', fail);
    } else if (top !== null) {
      const [, key, value] = top as unknown as [string, string, string];
      if (!(TOP_KEYS as readonly string[]).includes(key)) {
        throw fail(`unknown key ${key} (the keys are ${TOP_KEYS.join(', ')})`);
      }
      if (seen.has(key)) throw fail(`${key} is given twice`);
      seen.add(key);
      inArguments = key === 'arguments';
      if (inArguments) {
        if (value.trim() !== '' && value.trim() !== '[]') {
          throw fail('arguments is a list: one "- name: …" line per argument, on the lines below');
        }
        items = [];
      } else front[key as 'name' | 'title' | 'description'] = scalar(value, key, fail);
    } else if (member !== null && inArguments && items!.length > 0) {
      setField(items!.at(-1)!.fields, member[1]!, member[2]!, ARGUMENT_KEYS, 'an argument', fail);
    } else {
      throw fail(
        `expected "key: value" (the keys are ${TOP_KEYS.join(', ')}) or, under arguments, "- name: …"`,
      );
    }
  });
  if (items !== undefined) front.arguments = items.map((entry) => argumentOf(file, entry));
  const names = front.arguments?.map((argument) => argument.name) ?? [];
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) throw new PromptsError(`${file}: the argument ${twice} is declared twice`);
  return front;
}

function setField(
  fields: Map<string, string>,
  key: string,
  raw: string,
  keys: readonly string[],
  what: string,
  fail: (problem: string) => PromptsError,
): void {
  if (!keys.includes(key)) throw fail(`unknown key ${key} of ${what} (the keys are ${keys.join(', ')})`);
  if (fields.has(key)) throw fail(`${key} is given twice`);
  fields.set(key, scalar(raw, key, fail));
}

function argumentOf(
  file: string,
  { line, fields }: { line: number; fields: Map<string, string> },
): PromptArgument {
  const fail = (problem: string) => new PromptsError(`${file}:${line}: ${problem}`);
  const name = fields.get('name');
  if (name === undefined) throw fail('an argument needs a name');
  if (!ARGUMENT_NAME.test(name)) {
    throw fail(`the argument name must be a letter or _ then up to 63 letters, digits, _ or -`);
  }
  const required = fields.get('required')?.toLowerCase();
  if (required !== undefined && required !== 'true' && required !== 'false') {
    throw fail(`required of ${name} must be true or false`);
  }
  const description = fields.get('description');
  return { name, ...(description !== undefined && { description }), required: required === 'true' };
}

/** A one-line YAML scalar: plain (a " #" starts a comment), "double-quoted" (JSON escapes) or 'single'. */
function scalar(raw: string, key: string, fail: (problem: string) => PromptsError): string {
  const value = raw.trim();
  let text: string;
  if (value.startsWith('"')) {
    const quoted = /^("(?:[^"\\]|\\.)*")\s*(?:#.*)?$/.exec(value)?.[1];
    try {
      text = JSON.parse(quoted ?? '') as string;
    } catch {
      throw fail(`${key}: a "quoted" value must end with " and use only JSON escapes (\\" \\\\ \\n \\u00e9)`);
    }
  } else if (value.startsWith("'")) {
    const quoted = /^'((?:[^']|'')*)'\s*(?:#.*)?$/.exec(value)?.[1];
    if (quoted === undefined) throw fail(`${key}: a 'quoted' value must end with '`);
    text = quoted.replace(/''/g, "'");
  } else if (/^[|>]/.test(value)) {
    throw fail(`${key}: multi-line values (| or >) are not supported; write the value on one line`);
  } else {
    text = value.replace(/(^|\s+)#.*$/, '');
  }
  if (text.trim() === '') throw fail(`${key} needs a value`);
  return text.trim();
}

function readText(file: string): string {
  let bytes;
  try {
    if (statSync(file).size > MAX_PROMPT_FILE_BYTES) {
      throw new PromptsError(
        `${file}: is larger than ${MAX_PROMPT_FILE_BYTES / 1024} KiB; a prompt is a short text`,
      );
    }
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof PromptsError) throw error;
    throw new PromptsError(cannotRead(file, error));
  }
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  try {
    return text.decode(bytes);
  } catch {
    throw new PromptsError(`${file}: is not UTF-8 text`);
  }
}
