import { valueFromASTUntyped, type FieldNode } from 'graphql';
import { CEILING, type FieldCost, type SchemaCosts } from './cost-schema.js';
import type { CallValues } from './cost-variables.js';

/**
 * What one call of a field weighs, as the IBM cost specification's field cost counts a field's own part: its
 * @cost, plus that of each argument given and of the input fields given inside them (through lists and nested
 * input objects, from literals or variables); at least 0. Weights of directives are not counted.
 */
export function fieldWeight(
  node: FieldNode,
  info: FieldCost,
  costs: SchemaCosts,
  values: CallValues,
): number {
  let weight = info.weight;
  for (const argument of node.arguments ?? []) {
    const defined = info.def.args.find((a) => a.name === argument.name.value);
    if (defined === undefined) continue;
    const value = valueFromASTUntyped(argument.value, values.all());
    if (value === undefined) continue;
    weight += info.argumentWeights.get(defined.name) ?? 0;
    weight += costs.inputWeight(defined.type, value);
  }
  return weight > 0 ? Math.min(weight, CEILING) : 0;
}
