import type { CallToolResult } from '@modelcontextprotocol/server';
import { renderResponse } from './render.js';

/** A tool's result: its GraphQL response, or its error text (`CODE: message`). */
export function renderResult(result: CallToolResult): HTMLElement {
  const structured = result.structuredContent;
  if (typeof structured === 'object' && structured !== null && !Array.isArray(structured)) {
    return renderResponse(structured as Record<string, unknown>);
  }
  const box = document.createElement('section');
  box.className = result.isError === true ? 'failure' : 'text';
  for (const item of result.content ?? []) {
    if (item.type !== 'text') continue;
    const line = document.createElement('p');
    line.textContent = item.text;
    box.append(line);
  }
  return box;
}
