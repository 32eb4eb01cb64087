// The layering rules of docs/architecture.md, checked on every `npm run lint`:
//   1. no import cycle among the modules of src/ (type-only imports count: a cycle of types is a cycle of ideas);
//   2. src/graphql/ and src/http/ know nothing of MCP, the tools, the transports or the options: they import
//      nothing from src/tools/, src/transports/, src/auth/, src/server.ts, src/cli.ts, src/config.ts,
//      src/options.ts, nor any @modelcontextprotocol package.
// Prints each violation with the chain of files, and exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Every .ts file under src/, as a path relative to the repository. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

/** A file's imports: relative ones resolved to repository paths, packages by name. */
function importsOf(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map(({ fileName }) =>
    fileName.startsWith('.')
      ? relative(root, resolve(dirname(join(root, file)), fileName)).replace(/\.js$/, '.ts')
      : fileName,
  );
}

const files = sources(src);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const problems = [];

// 1. Cycles: Tarjan's strongly connected components; any component of two or more files is a cycle.
let index = 0;
const stack = [];
const state = new Map();
function connect(file) {
  state.set(file, { index, low: index, onStack: true });
  index++;
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    if (!graph.has(next)) continue;
    if (!state.has(next)) {
      connect(next);
      state.get(file).low = Math.min(state.get(file).low, state.get(next).low);
    } else if (state.get(next).onStack) {
      state.get(file).low = Math.min(state.get(file).low, state.get(next).index);
    }
  }
  if (state.get(file).low === state.get(file).index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(member);
    } while (member !== file);
    if (component.length > 1) problems.push(`import cycle: ${component.sort().join(' ↔ ')}`);
  }
}
for (const file of files) if (!state.has(file)) connect(file);

// 2. Layers: what the GraphQL analysis and the HTTP client may not know of.
const LOWER = ['src/graphql/', 'src/http/'];
const FORBIDDEN = [
  'src/tools/',
  'src/transports/',
  'src/auth/',
  'src/server.ts',
  'src/cli.ts',
  'src/config.ts',
  'src/options.ts',
];
for (const [file, imports] of graph) {
  if (!LOWER.some((layer) => file.startsWith(layer))) continue;
  for (const target of imports) {
    if (target.startsWith('@modelcontextprotocol/') || FORBIDDEN.some((upper) => target.startsWith(upper))) {
      problems.push(
        `layering: ${file} imports ${target}, which ${LOWER.find((l) => file.startsWith(l))} must not know`,
      );
    }
  }
}

for (const problem of problems) process.stderr.write(`${problem}\n`);
if (problems.length > 0) process.exit(1);
process.stdout.write(`imports: ${files.length} modules, no cycle, layers respected\n`);
