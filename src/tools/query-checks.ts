import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { ToolError } from '../common/errors.js';
import { thousands } from '../common/text.js';
import { DEFAULT_API, type ApiConfig } from '../config/types.js';
import { costAdvice, estimated } from '../graphql/cost-advice.js';
import type { CostEstimate } from '../graphql/cost.js';
import { measureComplexity } from '../graphql/complexity.js';
import type { AnalysedDocument } from '../graphql/operation.js';
import { validateDocument } from '../graphql/validate.js';
import { describeEndpoint } from '../http/endpoint.js';
import type { Call } from './call.js';

// The checks of graphql_query's pipeline (query-run.ts) that refuse a call before anything is sent, each with
// its code and what to change: the mutation guard (step 6), complexity (7), the schema (8) and the cost.

/** MUTATION_NOT_ALLOWED when the API refuses every mutation, or the model did not allow this one. */
export function permissionRefusal(config: ApiConfig, allowMutations: boolean): ToolError | undefined {
  if (config.readOnly) {
    return new ToolError(
      'MUTATION_NOT_ALLOWED',
      config.name === DEFAULT_API
        ? 'this server was started with --readOnly, so it refuses every mutation'
        : `the API ${config.name} refuses every mutation (its mutations option is deny)`,
    );
  }
  if (allowMutations) return undefined;
  const asked = config.mutations === 'allow' ? '' : '; the user is then asked to confirm it';
  return new ToolError(
    'MUTATION_NOT_ALLOWED',
    `the document contains a mutation; set allowMutations to true to run it (only if changing data is intended)${asked}`,
  );
}

/** COMPLEXITY_LIMIT when the operation selects more fields than --maxComplexity. */
export function checkComplexity(
  config: ApiConfig,
  document: AnalysedDocument,
  operation: OperationDefinitionNode,
): void {
  if (config.maxComplexity === 0) return;
  const complexity = measureComplexity(document, operation, config.maxComplexity);
  if (complexity.value > config.maxComplexity) {
    throw new ToolError(
      'COMPLEXITY_LIMIT',
      `the query selects ${complexity.atLeast ? 'at least ' : ''}${complexity.value} fields, more than the limit of ${config.maxComplexity}; select fewer fields or split the query`,
    );
  }
}

/**
 * COST_LIMIT when the operation can return more list items than --maxCost (cost units where @cost weights
 * count), with the largest contributors and how to lower each; a note when it comes within half of it, before a
 * larger page or one more level is refused.
 */
export function checkCost(config: ApiConfig, cost: CostEstimate, call: Pick<Call, 'notes'>): void {
  const limit = config.maxCost;
  if (limit === 0 || cost.total * 2 < limit) return;
  const largest = costAdvice(cost, { limit });
  if (cost.total > limit) {
    throw new ToolError(
      'COST_LIMIT',
      `the query ${estimated(cost)}, more than the limit of ${thousands(limit)}; nothing was sent. Largest: ${largest}`,
    );
  }
  call.notes = [
    ...call.notes,
    `Cost: this query ${estimated(cost)}, near the limit of ${thousands(limit)} (a larger page or one more nested list may be refused). Largest: ${largest}`,
  ];
}

/** VALIDATION_FAILED, naming each problem and the valid names, when the document does not match the schema. */
export function checkAgainstSchema(
  schema: GraphQLSchema,
  endpoint: URL,
  document: AnalysedDocument,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): void {
  const problems = validateDocument(schema, document, operation, variables);
  if (problems.length === 0) return;
  throw new ToolError(
    'VALIDATION_FAILED',
    `the document does not match the schema of ${describeEndpoint(endpoint)}, so it was not sent: ` +
      problems.map((problem, i) => `${i + 1}) ${problem}`).join(' '),
  );
}
