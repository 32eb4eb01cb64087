import { createHash } from 'node:crypto';

// Trusted documents sent by id rather than whole: Apollo's persisted-query extension (with the automatic
// persisted queries' registration when the API does not know the hash yet) and the `documentId` of GraphQL over
// HTTP's persisted documents (Hive, Cosmo, Yoga) or Relay's `doc_id`; and what an API's errors say about them.

/** A trusted document: its id, and the text the id names exactly as written (a manifest's body). */
export interface PersistedDocument {
  readonly id: string;
  readonly text: string;
}

/**
 * How an API takes a document by id: `apollo`, Apollo's `extensions.persistedQuery` (`{version: 1,
 * sha256Hash}`), registering the document when the API answers PersistedQueryNotFound; `documentId` or `doc_id`,
 * a member of the request holding the id (GraphQL over HTTP and Hive; Relay).
 */
export type PersistedProtocol = 'apollo' | 'documentId' | 'doc_id';

/** The lower-case hex SHA-256 of a text's UTF-8 bytes. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const SHA256 = /^(?:sha256:)?([0-9a-fA-F]{64})$/;
const SHA1 = /^[0-9a-fA-F]{40}$/;

/**
 * Why `text` is not the document `id` names, or undefined when it is or when the id states no digest. An id of
 * 64 hex digits (or `sha256:` and 64, GraphQL over HTTP's form) is the SHA-256 of the text as written (Apollo's
 * manifests, Relay and graphql-codegen with sha256); one of 40 is its SHA-1 (graphql-codegen's client preset by
 * default). Other ids are the manifest's to vouch for: 32 hex digits may be Relay's MD5 as well as a UUID.
 */
export function digestMismatch(id: string, text: string): string | undefined {
  const sha256 = SHA256.exec(id)?.[1];
  if (sha256 !== undefined) {
    return sha256.toLowerCase() === sha256Hex(text) ? undefined : 'is not the SHA-256 of its document';
  }
  if (SHA1.test(id)) {
    const digest = createHash('sha1').update(text, 'utf8').digest('hex');
    return id.toLowerCase() === digest ? undefined : 'is not the SHA-1 of its document';
  }
  return undefined;
}

/** The SHA-256 an id states, lower-case hex, for Apollo's `sha256Hash`; the id itself when it states none. */
export function apolloHash(id: string): string {
  return SHA256.exec(id)?.[1]?.toLowerCase() ?? id;
}

/** Whether the API can be asked to register the document of `id`: the id is that document's SHA-256. */
export function registrable(id: string): boolean {
  return SHA256.test(id);
}

/**
 * What an API's errors say about persisted documents:
 * - `unregistered`: automatic persisted queries do not know the hash yet (send it again with the document);
 * - `unknown`: the id is not in the API's list of trusted documents;
 * - `unsupported`: the API takes no persisted queries;
 * - `id-required`: the API wants an id and found none (a whole document refused, or an id sent where it does
 *   not look for one).
 */
export type PersistedAnswer = 'unregistered' | 'unknown' | 'unsupported' | 'id-required';

// The codes and messages of Apollo Server and Router, GraphQL Yoga's plugins (GraphQL Hive's gateway), Hive
// Router and Grafbase.
const ID_REQUIRED_CODES = new Set([
  'PERSISTED_QUERY_ID_REQUIRED',
  'QUERY_NOT_IN_SAFELIST',
  'CANNOT_SEND_PQ_ID_AND_BODY',
  'PERSISTED_QUERY_ONLY',
  'PERSISTED_DOCUMENTS_ONLY',
  'TRUSTED_DOCUMENT_ERROR',
]);
const ID_REQUIRED_MESSAGE =
  /^PersistedQuery(Only|KeyNotFound)$|only persisted (documents|queries|operations)|persisted (documents|queries|operations) only|not allow freeform|trusted documents? (only|required)/i;
/**
 * What a server that reads no id answers a request that carries one and no document: graphql-http's "Missing
 * query", GraphQL Yoga's and express-graphql's "Must provide query string.", Apollo Server's "GraphQL operations
 * must contain a non-empty `query` or a `persistedQuery` extension.". A document sent whole never gets it.
 */
const NO_DOCUMENT_MESSAGE =
  /^(missing query|must provide query string|graphql operations must contain a non-empty `query`)/i;

/** What the errors of a GraphQL response say about persisted documents, if anything. */
export function persistedAnswer(result: Record<string, unknown>): PersistedAnswer | undefined {
  const errors = result.errors;
  if (!Array.isArray(errors)) return undefined;
  for (const error of errors as unknown[]) {
    if (typeof error !== 'object' || error === null) continue;
    const { message, extensions } = error as { message?: unknown; extensions?: { code?: unknown } };
    const code = typeof extensions?.code === 'string' ? extensions.code.toUpperCase() : undefined;
    if (code === 'PERSISTED_QUERY_NOT_FOUND') return 'unregistered';
    if (code === 'PERSISTED_QUERY_NOT_IN_LIST') return 'unknown';
    if (code === 'PERSISTED_QUERY_NOT_SUPPORTED') return 'unsupported';
    if (code !== undefined && ID_REQUIRED_CODES.has(code)) return 'id-required';
    if (typeof message !== 'string') continue;
    // Apollo's own messages, with a code or without one (older servers).
    if (message === 'PersistedQueryNotFound') return code === undefined ? 'unregistered' : 'unknown';
    if (message === 'PersistedQueryNotSupported') return 'unsupported';
    if (/^persisted (query|document) not found/i.test(message)) return 'unknown';
    if (ID_REQUIRED_MESSAGE.test(message)) return 'id-required';
    if (NO_DOCUMENT_MESSAGE.test(message)) return 'unsupported';
  }
  return undefined;
}

/** What an answer about persisted documents means, for the model and the operator; `byId`: the request carried an id. */
export function persistedAdvice(answer: PersistedAnswer, byId: boolean): string {
  switch (answer) {
    case 'id-required':
      return byId
        ? 'The API looked for a document id and found none where it looks: it takes ids in another form (Apollo\'s extensions.persistedQuery, "documentId" or "doc_id"); the operator should set how this API takes them.'
        : "The API runs only trusted documents (persisted operations) and refused this document, which was sent whole: run one of the operation tools this server offers for the API instead, or ask the operator to add the operation to the API's trusted documents and to this server's manifest.";
    case 'unknown':
      return "The API does not know this operation's id: its trusted documents and this server's manifest differ; the operator should publish the manifest to the API (or give this server the API's own).";
    case 'unsupported':
      return 'The API does not take documents by id in the form this server sends them (it looked for the document itself): its operator should set --persistedQueries=off for this API, which sends documents whole, or to the form of id the API reads (apollo, documentId or doc_id) where it runs only trusted documents.';
    case 'unregistered':
      return "The API does not know this operation's hash and did not take it registered (only a document whose id is its SHA-256 can be): the operator should publish the manifest to the API.";
  }
}

/**
 * The response to a document sent whole after the API answered its id as one that takes no persisted queries,
 * with what the operator should change (unless the response has advice of its own): every call of the API pays
 * for the refused request first.
 */
export function sentWhole<T extends { readonly advice?: string }>(response: T): T {
  if (response.advice !== undefined) return response;
  return {
    ...response,
    advice:
      "The API does not take persisted queries (it answered the operation's id without running it), so the operation was sent whole after its id: its operator should set --persistedQueries=off for this API, which saves that first request.",
  };
}
