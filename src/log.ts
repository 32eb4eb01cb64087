import { writeSync } from 'node:fs';

/**
 * One line for stderr. In stdio mode stdout carries the MCP protocol: everything else goes to stderr, always.
 * Written directly (as process.stderr writes to a pipe, synchronously) so that start-up does not load Node's
 * streams.
 */
export function log(line: string): void {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    process.stderr.write(`${line}\n`);
  }
}
