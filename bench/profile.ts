// --cpu-prof: where our server's time goes under the bench's load. The shipped bundles are minified, so the
// server is bundled again for the profile without minifying: functions keep their names, and esbuild's
// "// path" comment before each bundled module tells which package or source file a line belongs to.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Api } from './api.ts';
import type { BenchOptions } from './options.ts';
import { openSession } from './processes.ts';
import { count } from './stats.ts';

/** The profiled bundle's directory, beside the profile; its entry is server.mjs. */
const BUNDLE = 'bundle';

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Bundles the server as scripts/build.mjs does, minus minifying; returns the bundle's path. */
async function bundleForProfile(root: string, dir: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const outdir = join(dir, BUNDLE);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { server: join(root, 'src/cli.ts') },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    splitting: true,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    define: { __VERSION__: JSON.stringify(pkg.version) },
  });
  return join(outdir, 'server.mjs');
}

/** Which bundled module each line of the bundle belongs to, from esbuild's "// path" comments. */
function moduleOfLine(bundle: string): (line: number) => string {
  const starts: Array<{ line: number; name: string }> = [];
  readFileSync(bundle, 'utf8')
    .split('\n')
    .forEach((text, line) => {
      const match = /^\s*\/\/ ((?:node_modules|src|scripts)\/\S+)$/.exec(text);
      if (!match) return;
      const path = match[1]!;
      const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
      starts.push({ line, name: pkg ? pkg[1]! : path });
    });
  return (line) => {
    let low = 0;
    let high = starts.length - 1;
    let found = 'bundle';
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (starts[mid]!.line <= line) {
        found = starts[mid]!.name;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  };
}

/** Self time by function and by module, per call. */
function summarise(profile: CpuProfile, dir: string, calls: number): string {
  const outdir = join(dir, BUNDLE);
  const files = readdirSync(outdir).filter((name) => name.endsWith('.mjs'));
  const bundles = new Map(files.map((name) => [name, moduleOfLine(join(outdir, name))]));
  const bundleOf = (url: string) =>
    url.includes(`/${BUNDLE}/`) ? bundles.get(url.slice(url.lastIndexOf('/') + 1)) : undefined;
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    if (us === 0) continue;
    totalUs += us;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    let module: string;
    const moduleOf = bundleOf(url);
    if (moduleOf !== undefined) module = moduleOf(lineNumber);
    else if (url.startsWith('node:')) module = url.split('/').slice(0, 3).join('/');
    else module = url || functionName;
    const name = `${functionName || '(anonymous)'}  [${module}${moduleOf !== undefined ? `:${lineNumber + 1}` : ''}]`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byModule.set(module, (byModule.get(module) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([name, us]) =>
          `  ${((us / busyUs) * 100).toFixed(1).padStart(5)}%  ${(us / calls).toFixed(1).padStart(6)} µs/call  ${name}`,
      );
  return [
    `CPU profile of ${count(calls)} calls (start-up included): ${(busyUs / 1000).toFixed(0)} ms busy, ` +
      `${(busyUs / calls).toFixed(0)} µs of CPU per call on the server's main thread; ` +
      `idle ${((idleUs / totalUs) * 100).toFixed(0)}% of the time.`,
    'Self time by package or source file:',
    ...top(byModule, 12),
    'Self time by function:',
    ...top(byFunction, 25),
  ].join('\n');
}

/** Runs our server with --cpu-prof under the bench's sequential and concurrent load; returns the summary. */
export async function profileServer(
  root: string,
  dir: string,
  api: Api,
  options: BenchOptions,
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const bundle = await bundleForProfile(root, dir);
  const before = new Set(readdirSync(dir));
  const session = await openSession({
    command: options.node,
    args: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250', bundle, `--endpoint=${api.url}`],
    env: {},
  });
  try {
    for (let i = 0; i < options.warmup + options.calls; i++) await session.query(options.query);
    let issued = 0;
    const worker = async () => {
      while (issued < options.throughputCalls) {
        issued++;
        await session.query(options.query);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    // The profile is written when the server exits, which closing its stdin makes it do.
    await session.close();
  }
  api.forget();
  const written = readdirSync(dir).find((name) => name.endsWith('.cpuprofile') && !before.has(name));
  if (!written) return `CPU profile: the server wrote no profile to ${dir}.`;
  const profile = JSON.parse(readFileSync(join(dir, written), 'utf8')) as CpuProfile;
  return `${summarise(profile, dir, session.calls)}\n(profile: ${join(dir, written)}; open it in Chrome DevTools)`;
}
