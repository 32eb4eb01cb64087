import type { App } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { renderResult } from './result.js';

// The confirmation panel: the question the person would be asked anywhere else (every root field, the API, the
// headers the call adds by name, invisible characters by code point, the lists it may touch, the cost), with
// Run and Cancel. Run calls the app-only tool with the confirmation, once; Cancel and a closed panel send
// nothing. Either way the model is told what the person decided, through the host (ui/update-model-context).

/** The app-only tool Run calls (src/tools/confirm-mutation.ts). */
const CONFIRM_TOOL = 'graphql_confirm_mutation';

/** Shows the panel for a mutation that waits, in `root`. */
export function showPanel(app: App, root: HTMLElement, question: string, confirmation: string): void {
  // The confirmation is used once, then forgotten: a second click, or a later result, cannot send it again.
  let pending: string | undefined = confirmation;
  const panel = document.createElement('section');
  panel.className = 'panel';
  const heading = document.createElement('h1');
  heading.textContent = 'Run this mutation?';
  const text = document.createElement('pre');
  text.className = 'question';
  text.textContent = question;
  const run = button('Run', 'run');
  const cancel = button('Cancel', 'cancel');
  const actions = document.createElement('div');
  actions.className = 'actions';
  actions.append(run, cancel);
  const status = document.createElement('p');
  status.className = 'status';
  status.setAttribute('role', 'status');
  const outcome = document.createElement('div');
  panel.append(heading, text, actions, status);
  root.replaceChildren(panel, outcome);

  const settle = (message: string, state: string) => {
    pending = undefined;
    run.disabled = cancel.disabled = true;
    status.textContent = message;
    panel.dataset.state = state;
  };

  run.addEventListener('click', async () => {
    const given = pending;
    if (given === undefined) return;
    settle('Sending…', 'sending');
    let result: CallToolResult;
    try {
      result = await app.callServerTool({ name: CONFIRM_TOOL, arguments: { confirmation: given } });
    } catch (error) {
      settle(`The host did not run it: ${error instanceof Error ? error.message : String(error)}`, 'failed');
      await tell(
        app,
        'The user clicked Run in the confirmation panel, but the host did not pass it on; nothing was sent.',
      );
      return;
    }
    const answer = firstText(result);
    if (result.isError === true && /^[A-Z][A-Z_]*: /.test(answer)) {
      settle(`Not sent: ${answer}`, 'refused');
      await tell(app, `The user clicked Run in the confirmation panel, and the server refused it: ${answer}`);
      return;
    }
    settle('Sent once. The API answered:', 'sent');
    outcome.replaceChildren(renderResult(result));
    await tell(
      app,
      `The user confirmed the mutation in the panel; it was sent once. The API answered: ${answer}`,
    );
  });

  cancel.addEventListener('click', async () => {
    if (pending === undefined) return;
    settle('Cancelled: nothing was sent.', 'cancelled');
    await tell(
      app,
      'The user cancelled the mutation in the confirmation panel; nothing was sent. Do not retry it: ask the user what they want instead.',
    );
  });
}

/**
 * A mutation that waits for the panel, whose confirmation the host did not hand over (it keeps a result's
 * `_meta` from views): it cannot be run from here, which the person and the model are told.
 */
export function showUnconfirmable(app: App, root: HTMLElement): void {
  const panel = document.createElement('section');
  panel.className = 'panel';
  panel.dataset.state = 'unconfirmable';
  const status = document.createElement('p');
  status.className = 'status';
  status.textContent =
    'A mutation waits for your confirmation, but this app did not pass the confirmation to this panel, so it cannot be run from here. Nothing was sent.';
  panel.append(status);
  root.replaceChildren(panel);
  void tell(
    app,
    "The mutation could not be confirmed: this app does not pass a tool result's _meta to graphql-mcp's panel. Nothing was sent. Tell the user.",
  );
}

function button(label: string, name: string): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.textContent = label;
  node.className = name;
  return node;
}

function firstText(result: CallToolResult): string {
  const first = result.content?.[0];
  return first?.type === 'text' ? first.text : '';
}

/** What the person decided, for the model's next turn (a host that takes no context update loses only this). */
async function tell(app: App, text: string): Promise<void> {
  try {
    await app.updateModelContext({ content: [{ type: 'text', text }] });
  } catch {
    // The decision stands either way; the model learns it when the user next speaks.
  }
}
