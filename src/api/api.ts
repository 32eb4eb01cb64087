import type { ApiConfig } from '../config/types.js';
import type { Live } from '../common/live.js';
import type { OperationSet } from '../operations/load.js';
import type { IntrospectedSchema } from '../schema/view.js';

/** An API's operation tools: the set read at start-up, replaced when the files change (stdio mode). */
export type LiveOperations = Live<OperationSet>;

/**
 * One API as the server serves it: its configuration, with what start-up read for it (startup/prepare.ts): the
 * schema of its --schema file and its operation tools (followed when watched).
 */
export interface Api {
  readonly config: ApiConfig;
  readonly schema?: IntrospectedSchema;
  readonly operations?: LiveOperations;
}

/** What goes before an API's operation tool names: `github_` where several APIs' names could clash. */
export function toolPrefix(api: Api, apis: readonly Api[]): string {
  return apis.length > 1 ? `${api.config.name}_` : '';
}

/** Every operation tool's name as offered, with its API. */
export function operationTools(apis: readonly Api[]): Array<readonly [string, Api]> {
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
 * applied (`operationsOf` gives the sets a reload would serve).
 */
export function toolNameClash(
  apis: readonly Api[],
  builtIn: readonly string[],
  operationsOf: (api: Api) => OperationSet | undefined = (api) => api.operations?.current,
): string | undefined {
  const sources = new Map<string, string>(builtIn.map((name) => [name, `the built-in tool ${name}`]));
  for (const api of apis) {
    for (const tool of operationsOf(api)?.tools ?? []) {
      const name = toolPrefix(api, apis) + tool.name;
      const of = apis.length > 1 ? ` of the API ${api.config.name}` : '';
      const source = `the operation ${tool.name}${of} (${tool.where})`;
      const known = sources.get(name);
      if (known !== undefined) return `${known} and ${source} would both be the tool ${name}`;
      sources.set(name, source);
    }
  }
  return undefined;
}
