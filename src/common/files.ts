import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

// The files an option names (--operations, --prompts): each path a file, or a directory whose files of the
// right kind are read, however deep.

/**
 * `path` itself when it is a file, else every file under it (recursively) whose extension is one of
 * `extensions`, sorted; `fail` makes the error of a path that cannot be read.
 */
export function filesAt(
  path: string,
  extensions: ReadonlySet<string>,
  fail: (message: string) => Error,
): string[] {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw fail(cannotRead(path, error));
  }
  if (!stats.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && extensions.has(extname(entry.name).toLowerCase()))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** `path: cannot be read (ENOENT)`: a file system error in one line, its code and not its message. */
export function cannotRead(path: string, error: unknown): string {
  return `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
}
