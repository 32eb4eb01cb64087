// The names this server's telemetry uses: the OpenTelemetry semantic conventions' (the stable ones from the
// package; those still in Development, MCP and GenAI in semantic-conventions-genai, GraphQL, JSON-RPC, copied here
// rather than taken from the package's incubating entry, which may rename them), then the few of our own, under
// graphql_mcp.
export {
  ATTR_ERROR_TYPE as ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD as HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE as HTTP_RESPONSE_STATUS_CODE,
  ATTR_NETWORK_PROTOCOL_NAME as NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_PROTOCOL_VERSION as NETWORK_PROTOCOL_VERSION,
  ATTR_NETWORK_TRANSPORT as NETWORK_TRANSPORT,
  ATTR_SERVER_ADDRESS as SERVER_ADDRESS,
  ATTR_SERVER_PORT as SERVER_PORT,
  ATTR_SERVICE_NAME as SERVICE_NAME,
  ATTR_SERVICE_VERSION as SERVICE_VERSION,
  ATTR_URL_FULL as URL_FULL,
} from '@opentelemetry/semantic-conventions';

export const MCP_METHOD_NAME = 'mcp.method.name';
export const MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const MCP_SESSION_ID = 'mcp.session.id';
export const MCP_RESOURCE_URI = 'mcp.resource.uri';
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name';
export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
export const RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';
export const PROCESS_RUNTIME_NAME = 'process.runtime.name';
export const PROCESS_RUNTIME_VERSION = 'process.runtime.version';
export const PROCESS_PID = 'process.pid';

export const GRAPHQL_OPERATION_TYPE = 'graphql.operation.type';
export const GRAPHQL_OPERATION_NAME = 'graphql.operation.name';
export const GRAPHQL_DOCUMENT = 'graphql.document';

/** The API a GraphQL operation went to, by its name in the config file (several APIs). */
export const API_NAME = 'graphql_mcp.api';
/** The list items a GraphQL operation can return by its estimate (--maxCost). */
export const COST_ESTIMATE = 'graphql_mcp.cost.estimate';
/** How the person's decision on a mutation went (MutationOutcome). */
export const MUTATION_OUTCOME = 'graphql_mcp.mutation.outcome';
/** Why remote mode's front refused a request. */
export const REFUSAL_REASON = 'graphql_mcp.refusal.reason';

/** The MCP conventions' metric, and its bucket boundaries in seconds. */
export const MCP_SERVER_OPERATION_DURATION = 'mcp.server.operation.duration';
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Our metrics. */
export const RESULTS_SHORTENED = 'graphql_mcp.results.shortened';
export const MUTATION_DECISIONS = 'graphql_mcp.mutation.decisions';
export const REQUESTS_REFUSED = 'graphql_mcp.requests.refused';

/** The event the decision on a mutation is recorded as. */
export const MUTATION_DECISION_EVENT = 'graphql_mcp.mutation.decision';
