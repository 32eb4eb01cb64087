import { readdirSync, realpathSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { log } from '../log.js';

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
export type StartWatch = (
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
  const start: StartWatch =
    options.watch ?? ((dir, recursive, listener) => watch(dir, { persistent: false, recursive }, listener));
  const warn = options.warn ?? ((line: string) => log(`graphql-mcp: ${line}`));
  const absolute = paths.map((path) => resolve(path));
  const watches = new Map<string, DirectoryWatch>();
  let unwatchable = new Set<string>();
  let settle: NodeJS.Timeout | undefined;
  let due = 0;
  let poll: NodeJS.Timeout | undefined;
  let seen = '';
  let stopped = false;

  const changed = () => {
    if (stopped) return;
    const now = Date.now();
    if (settle === undefined) due = now + LONGEST_BURST_MS;
    clearTimeout(settle);
    settle = setTimeout(settled, Math.max(0, Math.min(SETTLE_MS, due - now)));
    settle.unref();
  };
  const settled = () => {
    settle = undefined;
    rescan();
    onChange();
  };

  const heard = (dir: string, name: string | null) => {
    const known = watches.get(dir);
    if (known === undefined) return;
    if (typeof known.scope === 'string' || name === null || known.scope.has(name)) changed();
    // The directory itself moved or removed (Linux says so with its own name): where it was must be looked at.
    else if (identity(dir) !== known.id) changed();
  };

  /** Watches `dir` (again if it was replaced) for `scope`; false when it exists but cannot be watched. */
  const ensure = (dir: string, scope: Scope): boolean => {
    const id = identity(dir);
    const known = watches.get(dir);
    if (known !== undefined && known.id === id && (known.scope === 'tree') === (scope === 'tree')) {
      known.scope = scope;
      return true;
    }
    if (known !== undefined) {
      known.watcher.close();
      watches.delete(dir);
    }
    // Gone meanwhile: the watch of its parent tells when it is back.
    if (id === undefined) return true;
    try {
      const watcher = start(dir, scope === 'tree', (_event, name) => heard(dir, name));
      watcher.on('error', () => {
        watcher.close();
        if (watches.get(dir)?.watcher === watcher) watches.delete(dir);
        changed();
      });
      watches.set(dir, { watcher, id, scope });
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      if (!unwatchable.has(dir)) {
        warn(`cannot watch ${dir} (${code}): looking for changes every ${POLL_MS / 1000} s instead`);
      }
      return false;
    }
  };

  const rescan = () => {
    if (stopped) return;
    // Each path's nearest existing directory, watched for the entry that leads to the path (to its real
    // path too, when it is a symbolic link: the target may change without the link changing).
    const anchors = new Map<string, Set<string>>();
    const targets = absolute.flatMap((path) => {
      const real = realPath(path);
      return real === path ? [path] : [path, real];
    });
    const anchored = targets.map((target) => {
      const [dir, name] = anchorOf(target);
      anchors.set(dir, (anchors.get(dir) ?? new Set()).add(name));
      return dir;
    });
    const scopes = new Map<string, Scope>();
    const failed = new Set<string>();
    const keep = (dir: string, scope: Scope) => {
      scopes.set(dir, scope);
      if (!ensure(dir, scope)) failed.add(dir);
    };
    for (const [dir, names] of anchors) keep(dir, names);
    // Watched before listed: a subdirectory made meanwhile is either listed or heard of.
    const walk = (dir: string) => {
      if (typeof scopes.get(dir) === 'string') return;
      keep(dir, 'all');
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) if (entry.isDirectory()) walk(join(dir, entry.name));
    };
    for (const path of absolute) {
      if (identity(path) === undefined) continue;
      if (NATIVE_RECURSIVE) keep(path, 'tree');
      else walk(path);
    }

    for (const [dir, known] of watches) {
      if (!scopes.has(dir)) {
        known.watcher.close();
        watches.delete(dir);
      }
    }
    unwatchable = failed;
    clearInterval(poll);
    poll = undefined;
    if (failed.size > 0) {
      seen = fingerprint(absolute);
      poll = setInterval(() => {
        const now = fingerprint(absolute);
        if (now !== seen) {
          seen = now;
          changed();
        }
      }, POLL_MS);
      poll.unref();
    }
    // A path made between finding its nearest directory and watching that directory was heard by no one.
    if (targets.some((target, i) => anchorOf(target)[0] !== anchored[i])) changed();
  };

  rescan();
  return () => {
    stopped = true;
    clearTimeout(settle);
    clearInterval(poll);
    for (const known of watches.values()) known.watcher.close();
    watches.clear();
  };
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
