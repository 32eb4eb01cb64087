import type { McpServer, RegisteredPrompt } from '@modelcontextprotocol/server';
import * as z from '../tools/zod.js';

/** One argument of a prompt: a string the user gives when picking it. */
export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A prompt: what clients list (name, title, description, arguments) and the text it gives the model. */
export interface PromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgument[];
  /** The message to the model, from the arguments given (an optional one left out is undefined). */
  render(args: Readonly<Record<string, string | undefined>>): string;
}

/** Names a prompt may have: what MCP clients accept as a command name. */
export const PROMPT_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Registers each prompt; getting one gives a single user message with its text. */
export function registerPrompts(server: McpServer, prompts: readonly PromptDefinition[]): () => void {
  const handles: RegisteredPrompt[] = [];
  for (const prompt of prompts) {
    const config = {
      ...(prompt.title !== undefined && { title: prompt.title }),
      ...(prompt.description !== undefined && { description: prompt.description }),
    };
    const messages = (args: Record<string, string | undefined>) => ({
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.render(args) } }],
    });
    if (prompt.arguments.length === 0) {
      handles.push(server.registerPrompt(prompt.name, config, () => messages({})));
      continue;
    }
    handles.push(
      server.registerPrompt(prompt.name, { ...config, argsSchema: argumentsSchema(prompt) }, (args) =>
        // Clients send an optional argument left empty as "": it counts as left out.
        messages(Object.fromEntries(Object.entries(args).map(([name, value]) => [name, value || undefined]))),
      ),
    );
  }
  return () => {
    for (const handle of handles) handle.remove();
  };
}

/**
 * The arguments as an object of strings, the required ones named when missing. Made once per list of arguments:
 * remote mode registers the prompts on a server per request, and a zod schema costs more to make than the rest.
 */
function argumentsSchema(prompt: PromptDefinition) {
  const key = JSON.stringify(prompt.arguments);
  let schema = argumentSchemas.get(key);
  if (schema === undefined) {
    const shape: Record<string, ReturnType<typeof argument>> = {};
    for (const { name, description, required } of prompt.arguments) {
      shape[name] = argument(description, required);
    }
    schema = z.strictObject(shape);
    argumentSchemas.set(key, schema);
  }
  return schema;
}
const argumentSchemas = new Map<
  string,
  ReturnType<typeof z.strictObject<Record<string, ReturnType<typeof argument>>>>
>();

function argument(description: string | undefined, required: boolean) {
  // The SDK names the argument: "Invalid arguments for prompt explore_api: goal: is required, a string".
  const text = z.string({ error: required ? 'is required, a string' : 'must be a string' });
  const described = description === undefined ? text : text.describe(description);
  return required ? described : described.optional();
}
