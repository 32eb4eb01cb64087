import type { OperationDefinitionNode } from 'graphql';
import { ToolError } from '../common/errors.js';
import { analyseDocument, selectOperation, type AnalysedDocument } from '../graphql/operation.js';
import { describeEndpoint } from '../http/endpoint.js';
import type { PersistedDocument } from '../http/persisted.js';
import type { Api } from '../api/api.js';

// graphql_query against an API that runs only its trusted documents (--trustedDocumentsOnly): the model's document
// runs when it is one of them, sent by the id of the trusted document it is; any other is refused before
// anything is sent, naming the operation tools that run the API's documents. "The same" is judged on documents
// parsed and printed, so that spacing, commas and comments do not count.

/** A document to run under trusted documents only: the model's, analysed, and the trusted document it is. */
export interface TrustedRun {
  readonly document: AnalysedDocument;
  readonly operation: OperationDefinitionNode;
  readonly persisted: PersistedDocument;
}

/**
 * The model's document as the trusted document it is, with the operation to run; else DOCUMENT_NOT_TRUSTED
 * naming the tools to call instead. `prefix` goes before the API's operation tool names (several APIs).
 */
export function asTrusted(
  api: Api,
  endpoint: URL,
  query: string,
  operationName: string | undefined,
  prefix: string,
): TrustedRun {
  const tools = (api.operations?.current.tools ?? []).filter((tool) => tool.persisted !== undefined);
  let document: AnalysedDocument | undefined;
  try {
    document = analyseDocument(query);
  } catch (error) {
    // A document that does not parse is none of the API's.
    if (!(error instanceof ToolError)) throw error;
  }
  const same = tools.filter((tool) => document !== undefined && printed(tool.persisted!) === document.text);
  if (document === undefined || same.length === 0) {
    throw notTrusted(
      endpoint,
      document,
      operationName,
      tools.map((tool) => prefix + tool.name),
      prefix,
    );
  }
  const operation = selectOperation(document, operationName);
  const tool = same.find((candidate) => candidate.name === operation.name?.value);
  // The trusted document holds the operation, but this server made no tool of it (a subscription, say).
  if (tool === undefined) throw notTrusted(endpoint, document, operationName, [], prefix);
  return { document, operation, persisted: tool.persisted! };
}

/** Each trusted document parsed and printed once, as the model's documents are printed (AnalysedDocument.text). */
const printedDocuments = new WeakMap<PersistedDocument, string>();

function printed(persisted: PersistedDocument): string {
  let text = printedDocuments.get(persisted);
  if (text === undefined) {
    text = analyseDocument(persisted.text).text;
    printedDocuments.set(persisted, text);
  }
  return text;
}

function notTrusted(
  endpoint: URL,
  document: AnalysedDocument | undefined,
  operationName: string | undefined,
  tools: readonly string[],
  prefix: string,
): ToolError {
  const where = `${describeEndpoint(endpoint)} runs only its trusted documents (persisted operations)`;
  if (tools.length === 0) {
    return new ToolError(
      'DOCUMENT_NOT_TRUSTED',
      `${where}, and this server holds none that runs this operation, so nothing was sent: the operator gives the API's trusted documents with --operations (its manifest)`,
    );
  }
  // A document of the same name as an operation tool's, written otherwise: that tool runs the trusted one.
  const names = new Set(tools);
  const named = document?.operations
    .map((operation) => operation.name?.value)
    .find((name) => name !== undefined && names.has(prefix + name) && (operationName ?? name) === name);
  if (named !== undefined) {
    return new ToolError(
      'DOCUMENT_NOT_TRUSTED',
      `${where}, and this document differs from its operation ${named} once both are parsed and printed, so it was not sent: call the tool ${prefix + named} (its inputs are the operation's variables), or send its document exactly`,
    );
  }
  const listed = tools.slice(0, 20).join(', ') + (tools.length > 20 ? ` and ${tools.length - 20} more` : '');
  return new ToolError(
    'DOCUMENT_NOT_TRUSTED',
    `${where}, and this document is none of them once parsed and printed, so it was not sent: call one of the operation tools that run them instead (${listed})`,
  );
}
