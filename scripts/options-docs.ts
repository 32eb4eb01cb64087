// Rewrites the README's options tables from the declaration in src/options.ts: `npm run docs:options`.
// test/unit/options.test.ts fails while the README and the declaration disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { COMMANDS, declaration, OPTION_NAMES, type OptionGroup } from '../src/options.ts';

export const README = fileURLToPath(new URL('../README.md', import.meta.url));

const GROUPS: readonly OptionGroup[] = ['general', 'remote', 'oauth'];

// <!-- options:start general … --> the table <!-- options:end general -->
const BLOCK = /(<!-- options:start (\w+)\b[^>]*-->\n)[\s\S]*?(<!-- options:end \2 -->)/g;

/** The README with each group's table rewritten; an error if a group has no block. */
export function withOptionsTables(readme: string): string {
  const found = new Set<string>();
  const updated = readme.replace(BLOCK, (_match, start: string, group: string, end: string) => {
    if (!(GROUPS as readonly string[]).includes(group)) throw new Error(`README: no option group ${group}`);
    found.add(group);
    return `${start}\n${optionsTable(group as OptionGroup)}\n\n${end}`;
  });
  const missing = GROUPS.filter((group) => !found.has(group));
  if (missing.length > 0) {
    throw new Error(`README: no <!-- options:start ${missing[0]} --> … <!-- options:end ${missing[0]} -->`);
  }
  return updated;
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
  const readme = readFileSync(README, 'utf8');
  const updated = withOptionsTables(readme);
  if (updated === readme) console.log('README.md: the options tables are up to date');
  else {
    writeFileSync(README, updated);
    console.log('README.md: options tables rewritten from src/options.ts');
  }
}
