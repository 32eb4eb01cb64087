// A GraphQL response as a person reads it: every list of objects a table (a list inside a row a table of its own
// in its cell), every other object a tree of its fields, scalars as they are. Built with the DOM's own methods
// and textContent only: nothing the API sent is ever read as HTML. The response is the one the model reads,
// shortened to its budget by the server; nothing is fetched.

/** Deeper than this, a value is shown as its JSON text (the server has shortened anything larger already). */
const MAX_DEPTH = 24;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A JSON value as DOM: a table, a tree or a scalar. */
function renderValue(value: unknown, depth = 0): HTMLElement {
  if (value === null || value === undefined) return element('span', 'null', 'null');
  if (typeof value !== 'object') return element('span', `scalar ${typeof value}`, String(value));
  if (depth >= MAX_DEPTH) return element('code', 'json', JSON.stringify(value));
  if (Array.isArray(value)) return renderList(value, depth);
  return renderObject(value as Record<string, Json>, depth);
}

function renderList(items: readonly unknown[], depth: number): HTMLElement {
  if (items.length === 0) return element('span', 'empty', 'none');
  if (items.every((item) => isRecord(item) || item === null)) return renderTable(items, depth);
  if (items.every((item) => typeof item !== 'object' || item === null)) {
    return element('span', 'scalars', items.map((item) => String(item)).join(', '));
  }
  const list = element('ol', 'list');
  for (const item of items) list.append(wrap('li', renderValue(item, depth + 1)));
  return list;
}

/** Rows of objects: a column per field, in the order the fields first appear. */
function renderTable(rows: readonly unknown[], depth: number): HTMLElement {
  const columns: string[] = [];
  const known = new Set<string>();
  for (const row of rows) {
    if (!isRecord(row)) continue;
    for (const key of Object.keys(row)) {
      if (known.has(key)) continue;
      known.add(key);
      columns.push(key);
    }
  }
  const table = element('table');
  const head = table.createTHead().insertRow();
  for (const column of columns) head.append(element('th', undefined, column));
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const column of columns) {
      const cell = tr.insertCell();
      if (isRecord(row) && column in row) cell.append(renderValue(row[column], depth + 1));
    }
  }
  const frame = element('div', 'table');
  frame.append(table, element('div', 'count', rows.length === 1 ? '1 row' : `${rows.length} rows`));
  return frame;
}

/** An object's fields, one line each; a field holding a table gets the width of the view. */
function renderObject(object: Record<string, Json>, depth: number): HTMLElement {
  const tree = element('dl', 'tree');
  for (const [key, child] of Object.entries(object)) {
    tree.append(element('dt', undefined, key), wrap('dd', renderValue(child, depth + 1)));
  }
  return tree;
}

function wrap<K extends keyof HTMLElementTagNameMap>(tag: K, child: Node): HTMLElementTagNameMap[K] {
  const node = element(tag);
  node.append(child);
  return node;
}

/** What graphql-mcp adds to a response: its notes (shortened, headers withheld, hints, cost), in `extensions`. */
function notesOf(response: Record<string, unknown>): string[] {
  const extensions = response.extensions;
  const own = isRecord(extensions) ? extensions['graphql-mcp'] : undefined;
  const notes = isRecord(own) ? own.notes : undefined;
  return Array.isArray(notes) ? notes.filter((note): note is string => typeof note === 'string') : [];
}

/** A GraphQL response: the server's notes above, then its errors, then its data. */
export function renderResponse(response: Record<string, unknown>): HTMLElement {
  const section = element('section', 'response');
  const notes = notesOf(response);
  if (notes.length > 0) {
    const list = element('ul', 'notes');
    for (const note of notes) list.append(element('li', undefined, note));
    section.append(list);
  }
  if (Array.isArray(response.errors) && response.errors.length > 0) {
    const list = element('ul', 'errors');
    for (const error of response.errors) {
      const message =
        isRecord(error) && typeof error.message === 'string' ? error.message : JSON.stringify(error);
      list.append(element('li', undefined, message));
    }
    section.append(list);
  }
  if ('data' in response) section.append(renderValue(response.data));
  return section;
}
