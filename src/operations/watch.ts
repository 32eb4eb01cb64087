import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Editors save in bursts (write, rename, touch): changes closer than this are one change. */
const SETTLE_MS = 150;

/**
 * Calls `onChange` once a burst of changes to these files or directories (recursively) has settled. A path
 * that cannot be watched is skipped: the tools stay as they are. Returns a function that stops watching.
 */
export function watchPaths(paths: readonly string[], onChange: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
    timer.unref();
  };
  const watchers: FSWatcher[] = [];
  for (const path of paths) {
    try {
      // A file is watched through its directory: editors often save by writing another file and renaming
      // it over the old one, which a watch on the file itself stops following.
      const watcher = statSync(path).isDirectory()
        ? watch(path, { recursive: true, persistent: false }, changed)
        : watch(dirname(path), { persistent: false }, (_event, name) => {
            if (name === null || name === basename(path)) changed();
          });
      watcher.on('error', () => undefined);
      watchers.push(watcher);
    } catch {
      // Not watchable here (a removed path, a file system without notifications).
    }
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
