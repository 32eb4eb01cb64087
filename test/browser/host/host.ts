import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/client';

// A host page built on the ext-apps SDK's host side, as a chat client embeds a server's view: the view's HTML in
// a sandboxed iframe (scripts, no same origin), an AppBridge speaking the MCP Apps protocol with it over
// postMessage, and the view's tool calls passed to the MCP client, which the test runs in Node over stdio
// (`hostCallTool`, exposed by Playwright). Like a real host, it passes on only calls of tools whose visibility
// includes "app", and keeps what the view tells the model (ui/update-model-context) where the test can read it.

declare global {
  interface Window {
    /** The test's MCP client: a tools/call to graphql-mcp over stdio. */
    hostCallTool(params: CallToolRequest['params']): Promise<CallToolResult>;
    /** What the view told the model, in order. */
    modelContext: string[];
    /** Shows a tool's result in its view. */
    showView(view: ViewInput): Promise<void>;
  }
}

export interface ViewInput {
  readonly html: string;
  readonly args: Record<string, unknown>;
  readonly result: CallToolResult;
  /** The names of the tools the view may call (their visibility includes "app"). */
  readonly appTools: readonly string[];
}

window.modelContext = [];

window.showView = async ({ html, args, result, appTools }) => {
  document.getElementById('view')?.remove();
  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.srcdoc = html;
  document.body.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: 'graphql-mcp test host', version: '1.0.0' },
    { serverTools: {}, logging: {}, updateModelContext: { text: {} } },
    { hostContext: { theme: 'light', displayMode: 'inline', platform: 'web' } },
  );
  bridge.oncalltool = async (params) => {
    if (!appTools.includes(params.name)) throw new Error(`the view may not call ${params.name}`);
    return window.hostCallTool(params);
  };
  bridge.onupdatemodelcontext = async ({ content }) => {
    for (const item of content ?? []) if (item.type === 'text') window.modelContext.push(item.text);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: args }).then(() => bridge.sendToolResult(result));
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
};
