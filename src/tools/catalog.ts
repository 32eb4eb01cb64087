import type { ApiConfig, MutationPolicy } from '../config/types.js';
import type { Api } from '../api/api.js';
import { thousands } from '../common/text.js';

/**
 * What tools/list says of each built-in tool, which depends on the configuration (the APIs and their
 * endpoints, limits, mutation policies). Every word is paid for in the model's context, on every turn.
 */
export function describeTools(
  served: readonly Api[],
): Record<'graphql_query' | 'graphql_introspect', string> {
  const apis = served.map((api) => api.config);
  const [first] = apis as [ApiConfig, ...ApiConfig[]];
  const target =
    apis.length === 1
      ? first.endpointName
      : `the API named by api (${apis.map((api) => `${api.name}: ${api.endpointName}`).join('; ')})`;
  const limits = new Set(apis.map((api) => api.maxComplexity));
  const limit =
    limits.size === 1 && first.maxComplexity > 0
      ? ` A query may select at most ${first.maxComplexity} fields.`
      : limits.size > 1
        ? ` Each API limits the fields a query may select (${apis.map((api) => `${api.name}: ${api.maxComplexity || 'none'}`).join(', ')}).`
        : '';
  const costs = new Set(apis.map((api) => api.maxCost));
  const cost =
    costs.size === 1 && first.maxCost > 0
      ? ` A query may return at most ${thousands(first.maxCost)} list items, estimated from first/limit arguments.`
      : costs.size > 1
        ? ` Each API limits the list items a query may return, estimated from first/limit arguments (${apis.map((api) => `${api.name}: ${api.maxCost ? thousands(api.maxCost) : 'none'}`).join(', ')}).`
        : '';
  const policies = new Set(apis.map((api) => api.mutations));
  const mutations =
    policies.size === 1
      ? MUTATIONS[first.mutations]
      : ` Mutations: ${apis.map((api) => `${api.name} ${SHORT_POLICY[api.mutations]}`).join('; ')}; never retry one the user declined.`;
  // An API of trusted documents only runs no document the model writes: its schema tells what its operation
  // tools take and return, and learning it first to write a query would lead nowhere.
  const allTrusted = apis.every((api) => api.protocol.trustedOnly);
  return {
    graphql_query:
      `Run a GraphQL query against ${target} (or the endpoint given); returns the GraphQL response.` +
      `${mutations}${limit}${cost}${trustedOnlyNote(served)}` +
      (allTrusted ? '' : ' Learn the schema with graphql_introspect first.'),
    graphql_introspect:
      `The schema of ${apis.length === 1 ? target : 'the API named by api'} (or the endpoint given) as GraphQL ` +
      `SDL, ${allTrusted ? 'to read the types its operation tools take and return' : 'to write correct queries'}. ` +
      `A schema over ${first.maxSchemaChars} characters comes as an overview ` +
      '(root fields, type names); then read parts with typeNames (full definitions) or search ' +
      '(types and fields by words).',
  };
}

/** What graphql_query can do for the APIs that run only their trusted documents: nothing but run one of them. */
function trustedOnlyNote(served: readonly Api[]): string {
  const trusted = served.filter((api) => api.config.protocol.trustedOnly);
  if (trusted.length === 0) return '';
  const held = (api: Api) =>
    (api.operations?.current.tools ?? []).some((tool) => tool.persisted !== undefined);
  if (served.length === 1) {
    return held(trusted[0]!)
      ? " This API runs only its trusted documents: a document is sent only when it is one of its operation tools' (then by its id); call those tools instead."
      : ' This API runs only its trusted documents, and this server holds none of them: every document is refused.';
  }
  const names = trusted.map((api) => api.config.name).join(', ');
  return ` The APIs ${names} run only their trusted documents: there a document is sent only when it is one of their operation tools' (then by its id); call those tools instead.`;
}

const MUTATIONS: Record<MutationPolicy, string> = {
  deny: ' Read-only: mutations are refused.',
  allow: ' Mutations are refused unless allowMutations is true.',
  confirm:
    ' A mutation needs allowMutations: true, then the user confirms it; never retry one they declined.',
  'require-confirm':
    ' A mutation needs allowMutations: true, then the user confirms it; never retry one they declined.',
};

const SHORT_POLICY: Record<MutationPolicy, string> = {
  deny: 'read-only',
  allow: 'with allowMutations: true',
  confirm: 'with allowMutations: true, then the user confirms',
  'require-confirm': 'with allowMutations: true, then the user confirms',
};
