import {
  registerAppResource,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type McpServer,
  type RegisteredResource,
  type RegisteredTool,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { declaresApps, followDeclarations } from './declared.js';

// graphql-mcp's MCP App: one view, the HTML that scripts/build.mjs bundles into dist/views/, which shows a
// tool's result as tables, or the confirmation panel of a mutation that waits for the person. Offered only to a
// client that declares the extension: to it, graphql_query and the operation tools carry the view's URI, the
// view can be read and the app-only tool that the panel calls is listed; to any other client the server's
// lists are exactly what they are without MCP Apps (what is registered for the view stays disabled, and the
// tools carry no `_meta`).

/** The URI of the view of graphql_query and the operation tools: their results, or a mutation's panel. */
export const QUERY_VIEW_URI = 'ui://graphql-mcp/query';

/** The view's file, beside the bundle (dist/views/). */
const QUERY_VIEW_FILE = 'query.html';

/**
 * What the view may reach: nothing. Empty lists are the MCP Apps default (no connection, no outside resource,
 * no frame); the HTML declares its own Content-Security-Policy too, with the hashes of its inline script and style.
 */
const VIEW_UI_META = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [] },
  prefersBorder: true,
};

/** The MCP Apps of one server instance, shown or hidden as its client declares the extension. */
export class Views {
  /** Whether the client renders MCP Apps, as it last declared. */
  #apps = false;
  /** The tools that have the view, with their `_meta` as registered. */
  readonly #tools = new Map<RegisteredTool, Record<string, unknown> | undefined>();
  /** What exists only for a client that renders MCP Apps: the view's resource, the app-only tools. */
  readonly #appOnly = new Set<RegisteredTool | RegisteredResource>();

  /**
   * `apps`: whether the client renders MCP Apps, where the transport knows it before any request declares it
   * (remote mode's 2025-era sessions); every request that declares capabilities updates it.
   */
  constructor(
    server: McpServer,
    /** The protocol era the server serves: a 2026 request declares its capabilities in its envelope. */
    private readonly era: 'legacy' | 'modern',
    apps = false,
  ) {
    this.#apps = apps;
    this.#appOnly.add(
      registerAppResource(
        server,
        'graphql_query view',
        QUERY_VIEW_URI,
        {
          title: 'GraphQL results and mutation confirmations',
          description: "graphql_query's results as tables, and the panel where a mutation is confirmed",
          _meta: { ui: VIEW_UI_META },
        },
        async () => ({
          contents: [
            {
              uri: QUERY_VIEW_URI,
              mimeType: RESOURCE_MIME_TYPE,
              text: await viewHtml(),
              _meta: { ui: VIEW_UI_META },
            },
          ],
        }),
      ),
    );
    followDeclarations(server, (declared) => this.#set(declared));
    this.#set(apps, true);
  }

  /** Gives `tool` the view, for a client that renders MCP Apps. */
  show(tool: RegisteredTool): void {
    this.#tools.set(tool, tool._meta);
    this.#apply(tool);
  }

  /** Forgets a tool that was removed. */
  forget(tool: RegisteredTool): void {
    this.#tools.delete(tool);
    this.#appOnly.delete(tool);
  }

  /** Registers a tool of the view (`visibility: ["app"]`): it exists only for a client that renders MCP Apps. */
  appOnly(tool: RegisteredTool): void {
    this.#appOnly.add(tool);
    tool.enabled = this.#apps;
  }

  /** Whether the client of the call whose context is `ctx` renders MCP Apps. */
  rendersApps(ctx: ServerContext): boolean {
    if (this.era === 'modern') {
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      return declaresApps(envelope?.[CLIENT_CAPABILITIES_META_KEY]);
    }
    return this.#apps;
  }

  // The registrations change in place, without the SDK's update(): it would tell the client that the lists
  // changed, while what changed is which client asks.
  #set(apps: boolean, force = false): void {
    if (apps === this.#apps && !force) return;
    this.#apps = apps;
    for (const tool of this.#tools.keys()) this.#apply(tool);
    for (const registered of this.#appOnly) registered.enabled = apps;
  }

  #apply(tool: RegisteredTool): void {
    const own = this.#tools.get(tool);
    // The shape registerAppTool gives a tool's `_meta`: the URI under `ui`, and under the older flat key.
    tool._meta = this.#apps
      ? { ...own, ui: { resourceUri: QUERY_VIEW_URI }, [RESOURCE_URI_META_KEY]: QUERY_VIEW_URI }
      : own;
  }
}

/** The view's HTML, read when a client first asks for it (never at start-up), then kept. */
let html: Promise<string> | undefined;
function viewHtml(): Promise<string> {
  // dist/views/ beside the bundle's modules, which all lie in dist/ (scripts/build.mjs).
  // node:fs/promises too is loaded then: start-up does not pay for it.
  html ??= import('node:fs/promises').then(({ readFile }) =>
    readFile(new URL(`views/${QUERY_VIEW_FILE}`, import.meta.url), 'utf8'),
  );
  html.catch(() => (html = undefined));
  return html;
}
