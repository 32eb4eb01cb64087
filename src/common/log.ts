/** One line for stderr. In stdio mode stdout carries the MCP protocol: everything else goes to stderr, always. */
export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}
