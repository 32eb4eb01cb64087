import type { McpServer, RegisteredTool, ServerContext } from '@modelcontextprotocol/server';
import type { OperationSet, OperationTool } from '../operations/load.js';
import type { Api } from '../api/api.js';
import { Call, guarded } from './call.js';
import { apiTarget } from '../call/target.js';
import { targetFor, type ToolContext } from './context.js';
import { advertisedJson } from './input.js';
import { outputSchema, queryRun } from './query.js';

/**
 * The operator's operations (--operations) as tools of one server. `show` makes the server offer exactly a
 * set's tools: a reload removes the tools that are gone, updates those that stay and adds the new ones; the
 * SDK tells a connected client that the list changed.
 */
export class OperationTools {
  readonly #handles = new Map<string, RegisteredTool>();

  constructor(
    private readonly server: McpServer,
    private readonly api: Api,
    private readonly tools: ToolContext,
    private readonly allowed: (name: string) => boolean = () => true,
    /** Put before each tool's name when several APIs are served (`github_`). */
    private readonly prefix = '',
  ) {}

  /** Offers exactly the tools of `set` (none when undefined). */
  show(set: OperationSet | undefined): void {
    const tools = (set?.tools ?? []).filter((tool) => this.allowed(this.prefix + tool.name));
    const names = new Set(tools.map((tool) => this.prefix + tool.name));
    for (const [name, handle] of this.#handles) {
      if (!names.has(name)) {
        this.tools.views?.forget(handle);
        handle.remove();
        this.#handles.delete(name);
      }
    }
    for (const tool of tools) {
      const name = this.prefix + tool.name;
      // With several APIs, the description says which one the tool calls.
      const api = this.prefix === '' ? '' : ` (API ${this.api.config.name})`;
      const definition = {
        title: name,
        description: `${tool.description}${api}`,
        inputSchema: advertisedJson(tool.inputSchema),
        outputSchema,
        annotations:
          tool.kind === 'query'
            ? { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }
            : { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      };
      const callback = this.tools.diagnostics.reported(name, (args: unknown, context) =>
        this.#run(set!, tool, name, (args ?? {}) as Record<string, unknown>, context),
      );
      const known = this.#handles.get(name);
      if (known === undefined) {
        const handle = this.server.registerTool(name, definition, callback);
        this.tools.views?.show(handle);
        this.#handles.set(name, handle);
      } else
        known.update({
          description: definition.description,
          paramsSchema: definition.inputSchema,
          annotations: definition.annotations,
          callback,
        });
    }
  }

  async #run(
    set: OperationSet,
    tool: OperationTool,
    name: string,
    args: Record<string, unknown>,
    context: ServerContext,
  ) {
    const call = new Call(this.tools.secrets);
    return guarded(call, async () => {
      const variables = set.variablesOf(tool, args);
      const target = targetFor(this.tools, name, () => apiTarget(this.api, this.tools.credentials));
      call.sends(target);
      const { runOperation } = await queryRun();
      return runOperation(
        target,
        tool,
        variables,
        call,
        context.mcpReq.signal,
        this.tools.confirmer.forCall(context),
      );
    });
  }
}
