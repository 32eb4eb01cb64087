import type { Config } from '../config.js';
import { describeEndpoint } from '../http/endpoint.js';

/** What tools/list says of each tool, which depends on the configuration (endpoint, limits, read-only). */
export function describeTools(config: Config): Record<'graphql_query' | 'graphql_introspect', string> {
  const limit = config.maxComplexity > 0 ? ` A query may select at most ${config.maxComplexity} fields.` : '';
  const mutations =
    config.mutations === 'deny'
      ? ' Read-only: mutations are refused.'
      : config.mutations === 'allow'
        ? ' Mutations are refused unless allowMutations is true.'
        : ' A mutation needs allowMutations: true, then the user confirms it; never retry one they declined.';
  const endpoint = describeEndpoint(config.endpoint);
  return {
    graphql_query:
      `Run a GraphQL query against ${endpoint} (or the endpoint given); returns the GraphQL response.` +
      `${mutations}${limit} Learn the schema with graphql_introspect first.`,
    graphql_introspect:
      `The schema of ${endpoint} (or the endpoint given) as GraphQL SDL, to write correct queries. ` +
      `A schema over ${config.maxSchemaChars} characters comes as an overview ` +
      '(root fields, type names); then read parts with typeNames (full definitions) or search ' +
      '(types and fields by words).',
  };
}
