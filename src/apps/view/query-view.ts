import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { showPanel, showUnconfirmable } from './panel.js';
import { renderResult } from './result.js';

// graphql-mcp's view (ui://graphql-mcp/query): bundled with the SDK's App class into one HTML file at build time
// (scripts/build.mjs), it shows the result of graphql_query or an operation tool: a mutation that waits for the
// person as the confirmation panel, anything else as tables. It fetches nothing: all it shows comes from the
// host, and all it sends goes through the host.

/** Where a waiting mutation's result holds its confirmation and its question (src/tools/confirm-mutation.ts). */
const CONFIRMATION_KEY = 'graphql-mcp/confirmation';
const QUESTION_KEY = 'graphql-mcp/question';

const root = document.getElementById('view')!;
const app = new App({ name: 'graphql-mcp', version: '1' }, {}, { autoResize: true });

function theme(context: McpUiHostContext | undefined): void {
  if (context?.theme !== undefined) applyDocumentTheme(context.theme);
  if (context?.styles?.variables !== undefined) applyHostStyleVariables(context.styles.variables);
}

app.ontoolresult = (result) => {
  const meta = result._meta ?? {};
  const confirmation = meta[CONFIRMATION_KEY];
  const question = meta[QUESTION_KEY];
  if (typeof confirmation === 'string' && typeof question === 'string') {
    showPanel(app, root, question, confirmation);
    return;
  }
  if (waitsForPanel(result.structuredContent)) {
    showUnconfirmable(app, root);
    return;
  }
  root.replaceChildren(renderResult(result));
};
/** A mutation that waits for this panel (its confirmation may not have reached it). */
function waitsForPanel(structured: unknown): boolean {
  const extensions = (structured as { extensions?: Record<string, { waitsFor?: unknown }> } | undefined)
    ?.extensions;
  return extensions?.['graphql-mcp']?.waitsFor === 'panel';
}

app.ontoolcancelled = () => {
  root.replaceChildren();
};
app.onhostcontextchanged = (context) => theme(context);

void app.connect().then(() => theme(app.getHostContext()));
