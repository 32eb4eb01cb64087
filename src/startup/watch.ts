import { readdirSync, realpathSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { log } from '../common/log.js';

// The directory holding each given path is watched for that one entry: it sees the file or directory
// replaced, deleted or created, however the editor saves. A given directory is watched whole: natively and
// recursively where Node's recursive watch is the system's own (FSEvents on macOS, Windows); elsewhere
// (Linux) every directory of the tree on its own, because Node's recursive watch there watches each file by
// its inode and loses a file once another is renamed over it. After each burst the paths are looked at again,
// so that new, renamed or replaced directories get watches of their own.

/** Editors save in bursts (write, rename, touch): changes closer than this are one change. */
const SETTLE_MS = 150;
/** A burst that does not end (a file written without pause) is read this long after it began all the same. */
const LONGEST_BURST_MS = 1_000;
/** How often the paths are compared with what they were, while a directory cannot be watched. */
const POLL_MS = 2_000;
/** Whether `fs.watch(dir, {recursive: true})` is the system's own rather than Node's per-file emulation. */
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * The events of a watched directory that count: those naming one of these entries, every one ('all'), or
 * every one in the whole tree, through one recursive watch ('tree').
 */
type Scope = ReadonlySet<string> | 'all' | 'tree';

interface DirectoryWatch {
  readonly watcher: FSWatcher;
  /** The directory watched (device and inode): a watch follows the directory, not its path. */
  readonly id: string;
  scope: Scope;
}

/** Starts a watch of a directory, recursive or not. */
type StartWatch = (
  dir: string,
  recursive: boolean,
  listener: (event: string, name: string | null) => void,
) => FSWatcher;

export interface WatchOptions {
  /** Starts the watch of one directory; a seam for a file system that refuses watches. @default fs.watch */
  readonly watch?: StartWatch;
  /** Where a directory that cannot be watched is told of. @default a line on stderr */
  readonly warn?: (line: string) => void;
}

/**
 * Calls `onChange` once a burst of changes to these files or directories (and everything under them) has
 * settled. A directory that cannot be watched (too many watches, no permission) is said on stderr, and the
 * paths are then compared every two seconds instead. Returns a function that stops watching.
 */
export function watchPaths(
  paths: readonly string[],
  onChange: () => void,
  options: WatchOptions = {},
): () => void {
  const watcher = new PathWatcher(
    paths.map((path) => resolve(path)),
    onChange,
    options.watch ?? ((dir, recursive, listener) => watch(dir, { persistent: false, recursive }, listener)),
    options.warn ?? ((line: string) => log(`graphql-mcp: ${line}`)),
  );
  watcher.rescan();
  return () => watcher.stop();
}

/** The watches of a set of paths, looked at again after each burst of changes. */
class PathWatcher {
  readonly #watches = new Map<string, DirectoryWatch>();
  /** Directories that exist but could not be watched at the last look: the paths are polled meanwhile. */
  #unwatchable = new Set<string>();
  #settle: NodeJS.Timeout | undefined;
  /** When the burst under way is read at the latest. */
  #due = 0;
  #poll: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(
    private readonly paths: readonly string[],
    private readonly onChange: () => void,
    private readonly start: StartWatch,
    private readonly warn: (line: string) => void,
  ) {}

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#settle);
    clearInterval(this.#poll);
    for (const known of this.#watches.values()) known.watcher.close();
    this.#watches.clear();
  }

  /** Something changed: read the paths once the burst has settled (or lasted too long). */
  changed(): void {
    if (this.#stopped) return;
    const now = Date.now();
    if (this.#settle === undefined) this.#due = now + LONGEST_BURST_MS;
    clearTimeout(this.#settle);
    this.#settle = setTimeout(
      () => {
        this.#settle = undefined;
        this.rescan();
        this.onChange();
      },
      Math.max(0, Math.min(SETTLE_MS, this.#due - now)),
    );
    this.#settle.unref();
  }

  /** Looks at the paths again: watches what is there now, drops the watches of what is gone. */
  rescan(): void {
    if (this.#stopped) return;
    // Each path's nearest existing directory, watched for the entry that leads to the path (to its real
    // path too, when it is a symbolic link: the target may change without the link changing).
    const targets = this.paths.flatMap((path) => {
      const real = realPath(path);
      return real === path ? [path] : [path, real];
    });
    const anchors = new Map<string, Set<string>>();
    const anchored = targets.map((target) => {
      const [dir, name] = anchorOf(target);
      anchors.set(dir, (anchors.get(dir) ?? new Set()).add(name));
      return dir;
    });
    const scopes = new Map<string, Scope>();
    const failed = new Set<string>();
    const keep = (dir: string, scope: Scope) => {
      scopes.set(dir, scope);
      if (!this.#ensure(dir, scope)) failed.add(dir);
    };
    for (const [dir, names] of anchors) keep(dir, names);
    for (const path of this.paths) {
      if (identity(path) === undefined) continue;
      if (NATIVE_RECURSIVE) keep(path, 'tree');
      else walk(path, scopes, keep);
    }
    for (const [dir, known] of this.#watches) {
      if (!scopes.has(dir)) {
        known.watcher.close();
        this.#watches.delete(dir);
      }
    }
    this.#unwatchable = failed;
    this.#pollWhile(failed.size > 0);
    // A path made between finding its nearest directory and watching that directory was heard by no one.
    if (targets.some((target, i) => anchorOf(target)[0] !== anchored[i])) this.changed();
  }

  /** Watches `dir` (again if it was replaced) for `scope`; false when it exists but cannot be watched. */
  #ensure(dir: string, scope: Scope): boolean {
    const id = identity(dir);
    const known = this.#watches.get(dir);
    if (known !== undefined && known.id === id && (known.scope === 'tree') === (scope === 'tree')) {
      known.scope = scope;
      return true;
    }
    if (known !== undefined) {
      known.watcher.close();
      this.#watches.delete(dir);
    }
    // Gone meanwhile: the watch of its parent tells when it is back.
    if (id === undefined) return true;
    try {
      const watcher = this.start(dir, scope === 'tree', (_event, name) => this.#heard(dir, name));
      watcher.on('error', () => {
        watcher.close();
        if (this.#watches.get(dir)?.watcher === watcher) this.#watches.delete(dir);
        this.changed();
      });
      this.#watches.set(dir, { watcher, id, scope });
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      if (!this.#unwatchable.has(dir)) {
        this.warn(`cannot watch ${dir} (${code}): looking for changes every ${POLL_MS / 1000} s instead`);
      }
      return false;
    }
  }

  #heard(dir: string, name: string | null): void {
    const known = this.#watches.get(dir);
    if (known === undefined) return;
    if (typeof known.scope === 'string' || name === null || known.scope.has(name)) this.changed();
    // The directory itself moved or removed (Linux says so with its own name): where it was must be looked at.
    else if (identity(dir) !== known.id) this.changed();
  }

  /** Compares the paths with what they were every POLL_MS while some directory cannot be watched. */
  #pollWhile(needed: boolean): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
    if (!needed) return;
    let seen = fingerprint(this.paths);
    this.#poll = setInterval(() => {
      const now = fingerprint(this.paths);
      if (now !== seen) {
        seen = now;
        this.changed();
      }
    }, POLL_MS);
    this.#poll.unref();
  }
}

/** Keeps `dir` and every directory under it watched whole; watched before listed, so that none made meanwhile is missed. */
function walk(
  dir: string,
  scopes: ReadonlyMap<string, Scope>,
  keep: (dir: string, scope: Scope) => void,
): void {
  if (typeof scopes.get(dir) === 'string') return;
  keep(dir, 'all');
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) if (entry.isDirectory()) walk(join(dir, entry.name), scopes, keep);
}

/** The directory at `path` (device and inode), or undefined when there is none. */
function identity(path: string): string | undefined {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stats?.isDirectory() ? `${stats.dev}:${stats.ino}` : undefined;
}

/** The nearest existing directory above `path`, and the name in it that leads to `path`. */
function anchorOf(path: string): [string, string] {
  let child = path;
  let dir = dirname(path);
  while (dir !== child && identity(dir) === undefined) {
    child = dir;
    dir = dirname(dir);
  }
  return [dir, basename(child)];
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Every entry under the paths with what changes when it is written, renamed over or removed. */
function fingerprint(paths: readonly string[]): string {
  const lines: string[] = [];
  const add = (path: string) => {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    lines.push(
      stats === undefined
        ? `${path} -`
        : `${path} ${stats.ino} ${stats.size} ${stats.mtimeNs} ${stats.ctimeNs}`,
    );
    return stats;
  };
  for (const path of paths) {
    if (!add(path)?.isDirectory()) continue;
    try {
      for (const entry of readdirSync(path, { recursive: true, encoding: 'utf8' })) add(join(path, entry));
    } catch {
      lines.push(`${path} unreadable`);
    }
  }
  return lines.join('\n');
}
