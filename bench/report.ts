// The bench table, rendered twice from one model: aligned text for the terminal, Markdown for the README.

export interface Table {
  header: string[];
  rows: string[][];
}

const width = (text: string) => [...text].length;

/** Columns padded to their widest cell, two spaces apart. */
export function renderText(table: Table): string {
  const all = [table.header, ...table.rows];
  const widths = table.header.map((_, i) => Math.max(...all.map((row) => width(row[i] ?? ''))));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell + ' '.repeat(widths[i]! - width(cell)))
      .join('  ')
      .trimEnd();
  return [line(table.header), widths.map((w) => '─'.repeat(w)).join('  '), ...table.rows.map(line)].join(
    '\n',
  );
}

export function renderMarkdown(table: Table): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const line = (row: string[]) => `| ${row.map(escape).join(' | ')} |`;
  return [line(table.header), line(table.header.map(() => '---')), ...table.rows.map(line)].join('\n');
}
