import { parse, Source, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { located } from '../schema/file.js';
import { digestMismatch, type PersistedDocument } from '../http/persisted.js';
import { isObject } from '../common/is-object.js';

// Manifests of trusted documents as a source of operation tools (--operations): Apollo's persisted query
// manifest ({"format": "apollo-persisted-query-manifest", "version": 1, "operations": [{id, name, type, body}]})
// and the flat map of ids to documents that Relay (persisted_queries.json), GraphQL Hive and graphql-codegen's
// client preset (persisted-documents.json) write. Each document is complete (its fragments inside it) and is
// what the API runs for its id, so its operations are checked like those of a .graphql file (load.ts) and keep
// the id for sending by id. An id that states a digest is checked against its document (digestMismatch).

const APOLLO_FORMAT = 'apollo-persisted-query-manifest';

/** How a document of a flat map begins: comments, then an operation, a fragment or a shorthand query. */
const DOCUMENT_START = /^\s*(?:#[^\n\r]*[\n\r]+\s*)*(?:query|mutation|subscription|fragment|\{)/;

/** One operation of a manifest, ready for the checks of every operation (load.ts). */
export interface ManifestOperation {
  readonly node: OperationDefinitionNode;
  /** The fragments of its own document: a manifest's documents are each complete, and fragments shared by none. */
  readonly fragments: ReadonlyMap<string, { readonly node: FragmentDefinitionNode; readonly file: string }>;
  /** Its document's id and text, as the manifest has them. */
  readonly persisted: PersistedDocument;
  /** Where it is, for messages: `ops/manifest.json [GetBook]`. */
  readonly where: string;
}

/** What a manifest file gave. */
export interface Manifest {
  readonly operations: ManifestOperation[];
  /** What was left out, each a line saying why (subscriptions and anonymous operations, or the whole file). */
  readonly skipped: string[];
}

/**
 * The operations of a `.json` file. A file named on its own must be a manifest; a `.json` file found in a
 * directory is one only when its shape says so (Apollo's format member, or an object of documents), and is
 * otherwise left out with a line in `skipped`. A problem is `fail(one line naming the file and operation)`.
 */
export function readManifest(
  file: string,
  text: string,
  named: boolean,
  fail: (message: string) => Error,
): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (!named) return notManifest(file, 'not JSON');
    throw fail(`${file}: not valid JSON (${(error as Error).message.split('\n', 1)[0]!.slice(0, 120)})`);
  }
  const entries =
    isObject(value) && value.format === APOLLO_FORMAT ? apolloEntries(file, value, fail) : flatEntries(value);
  if (entries === undefined) {
    if (!named) return notManifest(file, 'not a manifest of operations');
    throw fail(
      `${file}: not a manifest of operations: expected Apollo's ({"format": "${APOLLO_FORMAT}", "version": 1, ` +
        `"operations": [{"id", "name", "type", "body"}]}) or an object of ids and documents ({"<id>": "query …"})`,
    );
  }
  const manifest: Manifest = { operations: [], skipped: [] };
  const ids = new Set<string>();
  for (const entry of entries) {
    const label = `${file} [${entry.name ?? cut(entry.id)}]`;
    if (ids.has(entry.id)) throw fail(`${label}: the id ${shortId(entry.id)} is used twice`);
    ids.add(entry.id);
    const wrong = digestMismatch(entry.id, entry.body);
    if (wrong !== undefined) {
      throw fail(
        `${label}: the id ${shortId(entry.id)} ${wrong} as written in the manifest; the manifest was changed after its ids were made (make it again)`,
      );
    }
    readDocument(file, label, entry, manifest, fail);
  }
  return manifest;
}

/** A document of a manifest, with its id; Apollo's entries also name their operation and its type. */
interface Entry {
  readonly id: string;
  readonly body: string;
  readonly name?: string;
  readonly type?: string;
}

function apolloEntries(
  file: string,
  value: Record<string, unknown>,
  fail: (message: string) => Error,
): Entry[] {
  if (value.version !== 1) {
    throw fail(
      `${file}: Apollo manifest version ${JSON.stringify(value.version)} is not supported (version 1 is)`,
    );
  }
  if (!Array.isArray(value.operations)) throw fail(`${file}: "operations" must be an array`);
  return (value.operations as unknown[]).map((operation, i) => {
    const at = `${file} [operation ${i + 1}]`;
    if (!isObject(operation)) throw fail(`${at}: must be an object with id, name, type and body`);
    const { id, name, type, body } = operation;
    const named = typeof name === 'string' && name !== '' ? `${file} [${name}]` : at;
    if (typeof id !== 'string' || id === '') throw fail(`${named}: "id" must be a non-empty string`);
    if (typeof name !== 'string' || name === '') throw fail(`${named}: "name" must be the operation's name`);
    if (type !== 'query' && type !== 'mutation' && type !== 'subscription') {
      throw fail(`${named}: "type" must be query, mutation or subscription`);
    }
    if (typeof body !== 'string') throw fail(`${named}: "body" must be the document, a string`);
    return { id, body, name, type };
  });
}

/** The entries of a flat map, or undefined when the value is not one (some member is no document). */
function flatEntries(value: unknown): Entry[] | undefined {
  if (!isObject(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length === 0) return undefined;
  if (!entries.every(([, body]) => typeof body === 'string' && DOCUMENT_START.test(body))) return undefined;
  return entries.map(([id, body]) => ({ id, body: body as string }));
}

function readDocument(
  file: string,
  label: string,
  entry: Entry,
  manifest: Manifest,
  fail: (message: string) => Error,
): void {
  let definitions;
  try {
    definitions = parse(new Source(entry.body, label)).definitions;
  } catch (error) {
    throw fail(located(label, error));
  }
  const fragments = new Map<string, { node: FragmentDefinitionNode; file: string }>();
  const operations: OperationDefinitionNode[] = [];
  for (const node of definitions) {
    if (node.kind === 'FragmentDefinition') {
      if (fragments.has(node.name.value))
        throw fail(`${label}: fragment ${node.name.value} is defined twice`);
      fragments.set(node.name.value, { node, file: label });
    } else if (node.kind === 'OperationDefinition') operations.push(node);
    else
      throw fail(
        `${label}: only operations and fragments belong in a manifest's documents, not ${node.kind}`,
      );
  }
  if (
    entry.name !== undefined &&
    !operations.some((node) => node.name?.value === entry.name && node.operation === entry.type)
  ) {
    throw fail(`${label}: the document defines no ${entry.type} named ${entry.name}`);
  }
  const persisted = { id: entry.id, text: entry.body };
  for (const node of operations) {
    const name = node.name?.value;
    if (name === undefined) {
      manifest.skipped.push(`${label}: an operation without a name is left out (a tool needs one)`);
    } else if (node.operation === 'subscription') {
      manifest.skipped.push(
        `${name} (${file} [${name}]) is a subscription, which a tool cannot serve: left out`,
      );
    } else {
      manifest.operations.push({ node, fragments, persisted, where: `${file} [${name}]` });
    }
  }
}

function notManifest(file: string, why: string): Manifest {
  return {
    operations: [],
    skipped: [`${file}: ${why}, left out (a .json file there is read only as a manifest)`],
  };
}

/** An id in messages: long ones (digests) cut to their first 12 characters. */
function cut(id: string): string {
  return id.length > 16 ? `${id.slice(0, 12)}…` : id;
}

function shortId(id: string): string {
  return JSON.stringify(cut(id));
}
