// The servers under test and how each is launched. Like is compared with like: every subject runs with the
// same node on its bin, and ours and every `npx -y PACKAGE` peer also run through npx, for the start-up
// figures (once started, a server behind npx is the same node process running the same file).
import { dirname, join, relative } from 'node:path';
import { buildBaseline, installPeer, npxPackage, packOurs, type Baseline } from './launch.ts';
import { OptionsError, splitCommand, type BenchOptions } from './options.ts';
import type { ServerCommand } from './processes.ts';

/** How a subject is started: node on its bin, through npx, or a peer's command as given. */
export type Launch = 'node' | 'npx' | 'as given';

/** A server under test. */
export interface Subject {
  /** Its name in the tables, unique. */
  name: string;
  kind: 'ours' | 'baseline' | 'peer' | 'floor';
  launch: Launch;
  /** The command line as the tables show it (paths relative to the repository, the endpoint left out). */
  commandLine: string;
  server(url: string): ServerCommand;
  /**
   * What it takes part in: the start-up only (through npx: its calls are node's), or the calls too; the
   * floor has graphql_query only, and is not introspected.
   */
  measures: 'start-up' | 'calls' | 'all';
}

export const OURS = 'graphql-mcp';
/** Ours again, driven by a client of the 2026-07-28 protocol (server/discover, no initialize). */
export const OURS_2026 = 'graphql-mcp, 2026 client';
/** The least any server on this SDK does for a call (bench/sdk-floor.ts): a reference, not a rival. */
export const FLOOR = 'SDK floor';
/** The floor behind a bin like ours, which turns on Node's compile cache first: start-up only. */
export const CACHED_FLOOR = 'SDK floor, compile cache';
const NPX = ' (npx)';

/** What the subjects are launched from, prepared before the bench starts. */
export interface Prepared {
  /** The absolute path of the node binary. */
  node: string;
  floorBin: string;
  /** The floor's bin of four lines that turns on Node's compile cache, as ours does. */
  cachedFloorBin: string;
  /** `./.bench/graphql-mcp-<version>.tgz`, when the npx launches are measured. */
  tarball?: string;
  baseline?: Baseline;
}

/** Installs and builds what the subjects need (peers' packages, the baseline, the tarball). */
export function prepare(
  root: string,
  options: BenchOptions,
  node: string,
  floor: { floorBin: string; cachedFloorBin: string },
): Prepared {
  const prepared: Prepared = { node, ...floor };
  if (options.npx) prepared.tarball = packOurs(root);
  if (options.baseline !== undefined) prepared.baseline = buildBaseline(root, options.baseline);
  return prepared;
}

export function subjectsOf(root: string, options: BenchOptions, prepared: Prepared): Subject[] {
  const { node } = prepared;
  const shown = (path: string) => relative(root, path);
  // npx, and the node it runs on, are found on PATH: the bench's node first, so that npx runs on it too.
  const npxEnv = { PATH: `${dirname(node)}:${process.env.PATH ?? ''}` };
  const cli = join(root, 'dist/cli.cjs');

  const ours: Subject = {
    name: OURS,
    kind: 'ours',
    launch: 'node',
    commandLine: `node ${shown(cli)}`,
    server: (url) => ({ command: node, args: [cli, `--endpoint=${url}`], env: {} }),
    measures: 'all',
  };
  const subjects: Subject[] = [
    ours,
    { ...ours, name: OURS_2026, server: (url) => ({ ...ours.server(url), era: 'modern' }) },
  ];
  const { baseline } = prepared;
  if (baseline) {
    const short = baseline.sha.slice(0, 7);
    subjects.push({
      name: `${OURS} ${baseline.sha.startsWith(baseline.ref) ? short : `${baseline.ref} (${short})`}`,
      kind: 'baseline',
      launch: 'node',
      commandLine: `node ${shown(baseline.cli)}`,
      server: (url) => ({ command: node, args: [baseline.cli, `--endpoint=${url}`], env: {} }),
      measures: 'all',
    });
  }

  const throughNpx: Subject[] = [];
  if (prepared.tarball) {
    const tarball = prepared.tarball;
    throughNpx.push({
      name: OURS + NPX,
      kind: 'ours',
      launch: 'npx',
      commandLine: `npx -y file:${tarball}`,
      server: (url) => ({
        command: 'npx',
        args: ['-y', `file:${tarball}`, `--endpoint=${url}`],
        env: npxEnv,
        cwd: root,
      }),
      measures: 'start-up',
    });
  }

  for (const peer of options.peers) {
    const words = splitCommand(peer.command);
    if (words.length === 0) throw new OptionsError('--peer needs a command');
    const command = (
      url: string,
      [first, ...rest]: string[],
      env: Record<string, string> = {},
    ): ServerCommand => {
      const fill = (text: string) => text.replaceAll('{url}', url);
      const filled = Object.entries(peer.env).map(([name, value]) => [name, fill(value)]);
      return {
        command: fill(first!),
        args: rest.map(fill),
        env: { ...env, ...Object.fromEntries(filled) },
        queryTool: peer.queryTool,
        introspectTool: peer.introspectTool,
      };
    };
    const npx = npxPackage(words);
    if (npx === null) {
      // A command of node or npx runs on the bench's node, as ours does; any other runs as given.
      const launch: Launch = words[0] === 'node' ? 'node' : words[0] === 'npx' ? 'npx' : 'as given';
      const [, ...rest] = words;
      subjects.push({
        name: peer.name,
        kind: 'peer',
        launch,
        commandLine: peer.command,
        server: (url) =>
          launch === 'node'
            ? command(url, [node, ...rest])
            : launch === 'npx'
              ? { ...command(url, words, npxEnv), cwd: root }
              : command(url, words),
        measures: 'all',
      });
      continue;
    }
    const bin = installPeer(root, npx.spec);
    subjects.push({
      name: peer.name,
      kind: 'peer',
      launch: 'node',
      commandLine: `node ${shown(bin)}${npx.args.length > 0 ? ` ${npx.args.join(' ')}` : ''}`,
      server: (url) => command(url, [node, bin, ...npx.args]),
      measures: 'all',
    });
    if (options.npx) {
      throughNpx.push({
        name: peer.name + NPX,
        kind: 'peer',
        launch: 'npx',
        commandLine: peer.command,
        server: (url) => ({ ...command(url, words, npxEnv), cwd: root }),
        measures: 'start-up',
      });
    }
  }

  // The floor's calls, and its start-up twice: as bundled, and behind a compile-cache bin like ours.
  const floors = [
    [FLOOR, prepared.floorBin, 'calls'],
    [CACHED_FLOOR, prepared.cachedFloorBin, 'start-up'],
  ] as const;
  for (const [name, bin, measures] of floors) {
    subjects.push({
      name,
      kind: 'floor',
      launch: 'node',
      commandLine: `node ${shown(bin)}`,
      server: (url) => ({ command: node, args: [bin, '--endpoint', url], env: {} }),
      measures,
    });
  }
  return [...subjects, ...throughNpx];
}
