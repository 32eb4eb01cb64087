// The layering rules of docs/architecture.md, checked on every `npm run lint`:
//   1. no import cycle among the modules of src/ (type-only imports count: a cycle of types is a cycle of ideas);
//   2. src/graphql/ and src/http/ know nothing of MCP, the tools, the transports, the configuration or the schema
//      answers: they import nothing from src/tools/, src/transports/, src/auth/, src/server/, src/startup/,
//      src/config/, src/call/, src/schema/, src/cli.ts, nor any @modelcontextprotocol package; src/schema/
//      (source, cache, views, answers) knows nothing of the tools, transports, resources or prompts that use it;
//      only the edges (src/telemetry/ itself, src/startup/, src/transports/, src/cli.ts) import src/telemetry/;
//   3. start-up loads no graphql-js: nothing that src/cli.ts reaches through static imports imports `graphql` at
//      run time (what needs it is loaded with import() on first use, from a chunk of its own).
// Prints each violation, and exits 1 when there is one.
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

/** Where an import leads: a relative one resolved to a repository path, a package by name. */
function target(file, specifier) {
  return specifier.startsWith('.')
    ? relative(root, resolve(dirname(join(root, file)), specifier)).replace(/\.js$/, '.ts')
    : specifier;
}

/** A file's imports: every one (`all`, import() included) and those that run at load (`runtime`: static, not type-only). */
function importsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest);
  const all = [];
  const runtime = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const to = target(file, node.moduleSpecifier.text);
      all.push(to);
      if (!typeOnly(node)) runtime.push(to);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier)) all.push(target(file, specifier.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { all, runtime };
}

/** `import type …`, `import { type A, type B }`, `export type …`: gone at run time. */
function typeOnly(node) {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

const files = sources(src);
const modules = new Map(files.map((file) => [file, importsOf(file)]));
const graph = new Map(files.map((file) => [file, modules.get(file).all]));
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
  'src/server/',
  'src/startup/',
  'src/config/',
  'src/call/',
  'src/schema/',
  'src/cli.ts',
];
const SCHEMA_FORBIDDEN = ['src/tools/', 'src/transports/', 'src/resources/', 'src/prompts/'];
for (const [file, imports] of graph) {
  if (!file.startsWith('src/schema/')) continue;
  for (const target of imports) {
    if (
      target.startsWith('@modelcontextprotocol/') ||
      SCHEMA_FORBIDDEN.some((upper) => target.startsWith(upper))
    ) {
      problems.push(`layering: ${file} imports ${target}, which src/schema/ must not know`);
    }
  }
}
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

// Telemetry is attached at the edges: the domain publishes on diagnostics channels and knows nothing of it.
const TELEMETRY_EDGES = ['src/telemetry/', 'src/startup/', 'src/transports/', 'src/cli.ts'];
for (const [file, imports] of graph) {
  if (TELEMETRY_EDGES.some((edge) => file.startsWith(edge))) continue;
  for (const target of imports) {
    if (target.startsWith('src/telemetry/')) {
      problems.push(
        `layering: ${file} imports ${target}; only the edges (transports, start-up, the bin) know telemetry`,
      );
    }
  }
}

// 3. What runs at start-up.
/** Every file `roots` reach through run-time static imports, with the packages each imports. */
function reach(roots) {
  const seen = new Set();
  const pending = [...roots];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file) || !modules.has(file)) continue;
    seen.add(file);
    for (const next of modules.get(file).runtime) if (modules.has(next)) pending.push(next);
  }
  return seen;
}
const packagesOf = (file) => modules.get(file).runtime.filter((to) => !modules.has(to));
for (const file of reach(['src/cli.ts'])) {
  if (packagesOf(file).includes('graphql')) {
    problems.push(`start-up: ${file} imports graphql, and src/cli.ts reaches it without import()`);
  }
}

for (const problem of problems) process.stderr.write(`${problem}\n`);
if (problems.length > 0) process.exit(1);
process.stdout.write(
  `imports: ${files.length} modules, no cycle, layers respected, no graphql-js at start-up\n`,
);
