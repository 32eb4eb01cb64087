import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type JSONRPCMessage,
  type McpServer,
} from '@modelcontextprotocol/server';

// Whether a client renders MCP Apps (the io.modelcontextprotocol/ui extension) is what it declares: at
// `initialize` in the 2025 revisions, in each request's `_meta` envelope in 2026-07-28. The server's answers
// depend on it (tools/list carries the views only for such a client), and tools/list's handler is the SDK's,
// which reads what is registered when the request is served: so the declaration is read from each request as
// it reaches the server, before the SDK serves it.

/** Whether `capabilities` declare MCP Apps: the extension, with the MCP App HTML type among its mimeTypes. */
export function declaresApps(capabilities: unknown): boolean {
  if (typeof capabilities !== 'object' || capabilities === null) return false;
  const ui = getUiCapability(capabilities as ClientCapabilities) as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(RESOURCE_MIME_TYPE);
}

/**
 * The capabilities a message declares: an `initialize` request's, or a 2026-07-28 request's envelope; undefined
 * when it declares none (a 2025-era request after `initialize`, a notification, a response).
 */
function declaredBy(message: JSONRPCMessage): unknown {
  if (!('method' in message) || !('id' in message)) return undefined;
  const params = message.params as { capabilities?: unknown; _meta?: Record<string, unknown> } | undefined;
  if (message.method === 'initialize') return params?.capabilities ?? {};
  return params?._meta?.[CLIENT_CAPABILITIES_META_KEY];
}

/**
 * Calls `heard` with whether the client renders MCP Apps each time a request that reaches `server` declares
 * its capabilities, before the SDK serves that request. Wraps the server's `connect` (as the telemetry's
 * traced servers do): the transport is the SDK's own, and only its message callback is wrapped, once the
 * server has set it.
 */
export function followDeclarations(server: McpServer, heard: (apps: boolean) => void): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const declared = declaredBy(message);
      if (declared !== undefined) heard(declaresApps(declared));
      deliver?.(message, extra);
    };
  };
}
