import type { Config } from './config.js';
import type { Live } from './live.js';
import type { OperationSet } from './operations/load.js';

/** An API's operation tools: the set read at start-up, replaced when the files change (stdio mode). */
export type LiveOperations = Live<OperationSet>;

/** One API as the server serves it: its configuration, and its operation tools (followed when watched). */
export interface ServedApi {
  readonly config: Config;
  readonly operations?: LiveOperations;
}

/** What goes before an API's operation tool names: `github_` where several APIs' names could clash. */
export function toolPrefix(api: ServedApi, apis: readonly ServedApi[]): string {
  return apis.length > 1 ? `${api.config.api}_` : '';
}

/** Every operation tool's name as offered, with its API. */
export function operationTools(apis: readonly ServedApi[]): Array<readonly [string, ServedApi]> {
  return apis.flatMap((api) =>
    (api.operations?.current.tools ?? []).map((tool) => [toolPrefix(api, apis) + tool.name, api] as const),
  );
}

/**
 * Shows an API's operations on `view` (its tools, its resources) now and, when the files are watched, after
 * each reload; returns what takes them away again.
 */
export function followOperations(
  operations: LiveOperations,
  view: { show(set: OperationSet | undefined): void },
): () => void {
  view.show(operations.current);
  const unsubscribe = operations.watched ? operations.subscribe((set) => view.show(set)) : undefined;
  return () => {
    unsubscribe?.();
    view.show(undefined);
  };
}

/**
 * Two things that would register the same tool name, described for a message, or undefined when every name is
 * unique: a built-in tool and an operation tool (`graphql` + `query`), or two APIs' operation tools (`x` + `y_z`
 * and `x_y` + `z`). The whole set is checked before anything is registered: at start-up, and before a reload is
 * applied.
 */
export function toolNameClash(apis: readonly ServedApi[], builtIn: readonly string[]): string | undefined {
  const sources = new Map<string, string>(builtIn.map((name) => [name, `the built-in tool ${name}`]));
  for (const api of apis) {
    for (const tool of api.operations?.current.tools ?? []) {
      const name = toolPrefix(api, apis) + tool.name;
      const of = apis.length > 1 ? ` of the API ${api.config.api}` : '';
      const source = `the operation ${tool.name}${of} (${tool.where})`;
      const known = sources.get(name);
      if (known !== undefined) return `${known} and ${source} would both be the tool ${name}`;
      sources.set(name, source);
    }
  }
  return undefined;
}
