// Rewrites the options tables of the docs from the declaration in src/config/options.ts: `npm run docs:options`.
// Each table sits between its markers in README.md or a docs/*.md file; test/unit/options.test.ts fails while
// a table and the declaration disagree.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { COMMANDS, declaration, OPTION_NAMES, type OptionGroup } from '../src/config/options.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const GROUPS: readonly OptionGroup[] = ['general', 'tuning', 'remote', 'oauth'];

// <!-- options:start general … --> the table <!-- options:end general -->
const BLOCK = /(<!-- options:start (\w+)\b[^>]*-->\n)[\s\S]*?(<!-- options:end \2 -->)/g;

/** The files that may hold options tables, relative to the repository: README.md and docs/*.md. */
export function docFiles(root = ROOT): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** A document with each options table it holds rewritten, and the groups of those tables. */
export function withOptionsTables(text: string): { text: string; groups: OptionGroup[] } {
  const groups: OptionGroup[] = [];
  const updated = text.replace(BLOCK, (_match, start: string, group: string, end: string) => {
    if (!(GROUPS as readonly string[]).includes(group)) throw new Error(`no option group ${group}`);
    groups.push(group as OptionGroup);
    return `${start}\n${optionsTable(group as OptionGroup)}\n\n${end}`;
  });
  return { text: updated, groups };
}

/** One rewritten file: its path (relative to the repository), its text now, and as the declaration has it. */
export interface OptionsDoc {
  readonly path: string;
  readonly text: string;
  readonly updated: string;
}

/**
 * Every file that holds options tables, with its tables rewritten; an error unless each group has exactly one
 * table across the files.
 */
export function optionsDocs(root = ROOT): OptionsDoc[] {
  const docs: OptionsDoc[] = [];
  const where = new Map<OptionGroup, string>();
  for (const path of docFiles(root)) {
    const text = readFileSync(join(root, path), 'utf8');
    const { text: updated, groups } = withOptionsTables(text);
    for (const group of groups) {
      const other = where.get(group);
      if (other !== undefined) throw new Error(`two tables of the ${group} options: in ${other} and ${path}`);
      where.set(group, path);
    }
    if (groups.length > 0) docs.push({ path, text, updated });
  }
  const missing = GROUPS.find((group) => !where.has(group));
  if (missing !== undefined) {
    throw new Error(
      `no table of the ${missing} options: put <!-- options:start ${missing} --> … <!-- options:end ${missing} --> in README.md or a docs/*.md file`,
    );
  }
  return docs;
}

/** One group's options as a markdown table, its columns aligned as prettier aligns them. */
export function optionsTable(group: OptionGroup): string {
  const code = (text: string | undefined) => (text === undefined ? '' : `\`${text}\``);
  const rows = OPTION_NAMES.filter((name) => declaration(name).group === group).map((name) => {
    const declared = declaration(name);
    const fallback = declared.default === undefined ? (declared.unset ?? '') : code(declared.default);
    return [
      code(`--${name}`),
      code(declared.short && `-${declared.short}`),
      code(declared.env),
      fallback,
      declared.help,
    ];
  });
  if (group === 'general') {
    for (const [name, command] of Object.entries(COMMANDS)) {
      rows.push([code(`--${name}`), code(`-${command.short}`), '', '', command.help]);
    }
  }
  const table = [['Option', 'Short', 'Environment', 'Default', 'Meaning'], ...rows].map((row) =>
    row.map((cell) => cell.replaceAll('|', '\\|')),
  );
  const widths = table[0]!.map((_, column) => Math.max(3, ...table.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const [head, ...body] = table;
  return [line(head!), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const { path, text, updated } of optionsDocs()) {
    if (updated === text) console.log(`${path}: the options tables are up to date`);
    else {
      writeFileSync(join(ROOT, path), updated);
      console.log(`${path}: options tables rewritten from src/config/options.ts`);
    }
  }
}
