// A GraphQL-over-HTTP request's parameters (the specification's "Request Parameters": the document as `query`,
// `operationName`, `variables`, `extensions`; or, for a trusted document, its id in place of the document,
// persisted.ts) encoded as GraphQL over HTTP has it: by POST, one JSON object ("JSON Encoding"); by GET, the
// query component of the URL, form-encoded, with variables and extensions as JSON strings ("GET").

/** What one request carries besides the operation's variables and name: the document, or an id, and extensions. */
export interface Payload {
  readonly query?: string;
  /** The member holding a trusted document's id, and the id. */
  readonly idMember?: 'documentId' | 'doc_id';
  readonly id?: string;
  /** As JSON. */
  readonly extensions?: string;
}

/** The operation's parameters beside the payload (a GraphQLOperation has them). */
interface OperationParameters {
  readonly operationName?: string | undefined;
  /** As JSON. */
  readonly variables?: string | undefined;
}

/**
 * The longest URL sent by GET, in characters: 8 KiB, what common servers and proxies take in a request line
 * (nginx's and Apache's default buffers); a longer request goes by POST where the endpoint takes POST.
 */
export const MAX_GET_URL = 8 * 1024;

/** The POST body: the payload, the variables and the operation's name, as one JSON object. */
export function postBody(payload: Payload, operation: OperationParameters): string {
  // Written out rather than JSON.stringify of an object: the variables are JSON already. The document or the
  // id comes first; Apollo's hash alone has neither.
  let body =
    payload.query !== undefined
      ? `{"query":${JSON.stringify(payload.query)}`
      : payload.id !== undefined
        ? `{"${payload.idMember}":${JSON.stringify(payload.id)}`
        : '{"extensions":' + payload.extensions!;
  if (operation.variables !== undefined) body += `,"variables":${operation.variables}`;
  if (operation.operationName !== undefined) {
    body += `,"operationName":${JSON.stringify(operation.operationName)}`;
  }
  if (payload.extensions !== undefined && (payload.query !== undefined || payload.id !== undefined)) {
    body += `,"extensions":${payload.extensions}`;
  }
  return `${body}}`;
}

/**
 * The URL of a GET, as GraphQL over HTTP has it: the parameters in the query string, form-encoded, after any the
 * endpoint has; variables and extensions as JSON; those without a value left out (no variables for `{}`).
 */
export function getUrl(endpoint: URL, payload: Payload, operation: OperationParameters): string {
  const params = new URLSearchParams();
  if (payload.query !== undefined) params.append('query', payload.query);
  if (payload.id !== undefined) params.append(payload.idMember!, payload.id);
  if (operation.operationName !== undefined) params.append('operationName', operation.operationName);
  if (operation.variables !== undefined && operation.variables !== '{}') {
    params.append('variables', operation.variables);
  }
  if (payload.extensions !== undefined) params.append('extensions', payload.extensions);
  const base = endpoint.origin + endpoint.pathname + endpoint.search;
  return `${base}${endpoint.search === '' ? '?' : '&'}${params.toString()}`;
}
