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
  const trusted = apis.filter((api) => api.protocol.trustedOnly);
  const trustedOnly =
    trusted.length === 0
      ? ''
      : ` ${apis.length === 1 ? 'This API runs' : `The APIs ${trusted.map((api) => api.name).join(', ')} run`} only trusted documents: use the operation tools there.`;
  return {
    graphql_query:
      `Run a GraphQL query against ${target} (or the endpoint given); returns the GraphQL response.` +
      `${mutations}${limit}${cost}${trustedOnly} Learn the schema with graphql_introspect first.`,
    graphql_introspect:
      `The schema of ${apis.length === 1 ? target : 'the API named by api'} (or the endpoint given) as GraphQL ` +
      `SDL, to write correct queries. A schema over ${first.maxSchemaChars} characters comes as an overview ` +
      '(root fields, type names); then read parts with typeNames (full definitions) or search ' +
      '(types and fields by words).',
  };
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
