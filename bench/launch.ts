// What the subjects are launched from, prepared under .bench/ (git-ignored) before the bench starts: ours packed
// as npm would publish it (for npx), a peer installed from the npm registry (for node on its bin), and another
// commit of ours built from its own sources (--baseline). A peer and a baseline are reused from one run to the
// next (a commit's build does not change); the tarball is packed afresh from dist/ every run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The bench's own directory, relative to the repository's root. */
export const BENCH_DIR = '.bench';

const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);

/** Runs a command with its output on stderr (npm's and git's progress); throws naming it if it fails. */
function run(command: string, args: string[], cwd: string): void {
  try {
    execFileSync(command, args, { cwd, stdio: ['ignore', process.stderr, process.stderr] });
  } catch {
    throw new Error(`${command} ${args.join(' ')} failed (in ${cwd})`);
  }
}

/** The package spec and arguments of `npx -y SPEC ARGS…`; null for any other command, which runs as given. */
export function npxPackage(words: readonly string[]): { spec: string; args: string[] } | null {
  if (words[0] !== 'npx') return null;
  let i = 1;
  let yes = false;
  for (; i < words.length && words[i]!.startsWith('-'); i++) {
    // Other options of npx (--package, --call, …) change what runs: such a command is not taken apart.
    if (words[i] !== '-y' && words[i] !== '--yes') return null;
    yes = true;
  }
  return yes && i < words.length ? { spec: words[i]!, args: words.slice(i + 1) } : null;
}

/** The version line of a node binary (`v24.1.0`). */
export function nodeVersion(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
}

/** The checkout's commit, with `-dirty` when the working tree has uncommitted changes. */
export function describeCheckout(root: string): string {
  return execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=7'], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
}

/** Packs ours as `npm publish` would (dist/ as built, no scripts run); returns `./.bench/<tarball>`. */
export function packOurs(root: string): string {
  mkdirSync(join(root, BENCH_DIR), { recursive: true });
  const output = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--pack-destination', BENCH_DIR, '--json', '--loglevel=error'],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', process.stderr] },
  );
  const [packed] = JSON.parse(output) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack printed no tarball: ${output.slice(0, 200)}`);
  return `./${BENCH_DIR}/${packed.filename}`;
}

/**
 * The bin of a package installed from the npm registry into .bench/peers/<spec>, installing it unless it is
 * there: the path that npx would run, for node to run directly.
 */
export function installPeer(root: string, spec: string): string {
  const dir = join(root, BENCH_DIR, 'peers', spec.replace(/[^\w@.-]+/g, '_'));
  const installed = () => {
    if (!existsSync(join(dir, 'package.json'))) return null;
    // The one dependency of the directory is the package, under its own name whatever the spec was.
    const { dependencies = {} } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const [name] = Object.keys(dependencies);
    const manifest = name && join(dir, 'node_modules', name, 'package.json');
    if (!manifest || !existsSync(manifest)) return null;
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> };
    const unscoped = name.replace(/^@[^/]+\//, '');
    const bins = typeof bin === 'string' ? { [unscoped]: bin } : (bin ?? {});
    // npx runs the bin named after the package, or the only one.
    const entry = bins[unscoped] ?? (Object.keys(bins).length === 1 ? Object.values(bins)[0] : undefined);
    if (entry === undefined)
      throw new Error(`${spec} has no bin that npx would run: ${Object.keys(bins).join(', ')}`);
    const path = join(dir, 'node_modules', name, entry);
    return existsSync(path) ? path : null;
  };
  const found = installed();
  if (found) return found;
  progress(`installing ${spec} into ${BENCH_DIR}/peers for node to run its bin`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', spec], root);
  const path = installed();
  if (!path) throw new Error(`npm installed ${spec} into ${dir}, but its bin is not there`);
  return path;
}

/** Another commit of ours, built: the ref as given, the commit it names, and its built bin. */
export interface Baseline {
  ref: string;
  sha: string;
  /** The built dist/cli.cjs. */
  cli: string;
}

/**
 * Builds commit `ref` of this repository into .bench/baseline/<commit>, from its own sources, lock file and build
 * script (node_modules shared with this checkout when the lock files are the same); an existing build is reused.
 */
export function buildBaseline(root: string, ref: string): Baseline {
  let sha: string;
  try {
    sha = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new Error(`--baseline ${ref}: no such commit in this repository`);
  }
  const dir = join(root, BENCH_DIR, 'baseline', sha.slice(0, 12));
  const cli = join(dir, 'dist/cli.cjs');
  if (existsSync(cli)) return { ref, sha, cli };

  progress(`building ${ref} (${sha.slice(0, 7)}) into ${BENCH_DIR}/baseline`);
  // Built beside, then renamed: an interrupted build leaves nothing that looks finished.
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const tar = `${dir}.tar`;
  run('git', ['archive', '--output', tar, sha], root);
  run('tar', ['-xf', tar, '-C', staging], root);
  rmSync(tar);
  const lock = (at: string) => {
    const path = join(at, 'package-lock.json');
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  };
  const sameLock = lock(staging) !== null && lock(staging) === lock(root);
  if (sameLock) symlinkSync(join(root, 'node_modules'), join(staging, 'node_modules'), 'dir');
  else run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], staging);
  run(process.execPath, ['scripts/build.mjs'], staging);
  if (!existsSync(join(staging, 'dist/cli.cjs'))) throw new Error(`${ref}: its build made no dist/cli.cjs`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { ref, sha, cli };
}
