/** One line for stderr. In stdio mode stdout carries the MCP protocol: everything else goes to stderr, always. */
export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * One line for stderr, written with the other lines of this turn of the event loop (or at exit). Remote mode's
 * request log: writes to a pipe are synchronous, and it logs two lines per tool call (its outcome, then the
 * request), which would otherwise cost two system calls on every call's path, and a wake-up of whatever reads
 * the log.
 */
export function logSoon(line: string): void {
  pending.push(line);
  if (pending.length === 1) setImmediate(flush);
}

let pending: string[] = [];

function flush(): void {
  if (pending.length === 0) return;
  const text = `${pending.join('\n')}\n`;
  pending = [];
  process.stderr.write(text);
}

// process.exit() (a fatal error) runs no more turns of the loop: what is pending goes now.
process.on('exit', flush);
