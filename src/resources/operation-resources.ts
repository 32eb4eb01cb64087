import type { CacheHint, McpServer, RegisteredResource } from '@modelcontextprotocol/server';
import type { OperationSet, OperationTool } from '../operations/load.js';
import { RESOURCE_MIME_TYPE, resourceName, type ApiUris } from './uris.js';

/**
 * The operator's operations (--operations) as resources of one server, one per operation tool it offers:
 * the document with its description, to attach to a conversation or to read before calling the tool. `show`
 * makes the server offer exactly a set's operations, as OperationTools does with the tools; the SDK tells a
 * connected client that the list changed.
 */
export class OperationResources {
  readonly #handles = new Map<string, RegisteredResource>();

  constructor(
    private readonly server: McpServer,
    private readonly uris: ApiUris,
    private readonly cacheHint: CacheHint,
    private readonly allowed: (name: string) => boolean = () => true,
    /** Put before each tool's name when several APIs are served (`github_`). */
    private readonly prefix = '',
  ) {}

  /** Offers exactly the operations of `set` (none when undefined). */
  show(set: OperationSet | undefined): void {
    const tools = (set?.tools ?? []).filter((tool) => this.allowed(this.prefix + tool.name));
    const names = new Set(tools.map((tool) => tool.name));
    for (const [name, handle] of this.#handles) {
      if (!names.has(name)) {
        handle.remove();
        this.#handles.delete(name);
      }
    }
    for (const tool of tools) {
      const metadata = {
        title: `${tool.name} (${tool.kind})`,
        description: tool.description,
        mimeType: RESOURCE_MIME_TYPE,
      };
      const text = textOf(tool, this.prefix + tool.name);
      const read = (uri: URL) => ({ contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text }] });
      const known = this.#handles.get(tool.name);
      if (known !== undefined) known.update({ metadata, callback: read });
      else {
        const uri = this.uris.operation(tool.name);
        this.#handles.set(
          tool.name,
          this.server.registerResource(
            resourceName(uri),
            uri,
            { ...metadata, cacheHint: this.cacheHint },
            read,
          ),
        );
      }
    }
  }
}

/** The description as comments above the document: the text is the GraphQL document the tool sends. */
function textOf(tool: OperationTool, toolName: string): string {
  const comments = [...tool.description.split('\n'), `Run it with the tool ${toolName}.`]
    .map((line) => `# ${line.trim()}`.trimEnd())
    .join('\n');
  return `${comments}\n${tool.source}\n`;
}
