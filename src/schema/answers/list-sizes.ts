import { isInterfaceType, isObjectType, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { describeListSize } from '../../graphql/cost.js';
import { listWithin } from './text-budget.js';

// What a model reads of a field's lists where it decides what to select, so that it writes cheap queries
// first: the arguments that slice a list and the size counted without them, @listSize and @cost where the
// schema carries them (from an SDL file: introspection drops applied directives). A query's cost is the list
// items it can return (graphql/cost.ts), refused over --maxCost.

/** Most characters of the field names listed under one kind of list. */
const MAX_NAMES_CHARS = 400;

/**
 * `# Cost: list: slice with first/last (none given: counted as 100): issues, pullRequests`: one comment line per
 * kind of list among the fields of `type` as shown (or its one `member`, then without names), each described
 * from `costs`, the schema that carries @listSize and @cost where there is one; none for a type without lists.
 */
export function listSizeLines(costs: GraphQLSchema, type: GraphQLNamedType, member?: string): string[] {
  if (!isObjectType(type) && !isInterfaceType(type)) return [];
  const byKind = new Map<string, string[]>();
  for (const name of member === undefined ? Object.keys(type.getFields()) : [member]) {
    const kind = describeListSize(costs, type.name, name);
    if (kind === undefined) continue;
    const fields = byKind.get(kind);
    if (fields === undefined) byKind.set(kind, [name]);
    else fields.push(name);
  }
  if (member !== undefined) return [...byKind.keys()].map((kind) => `# Cost: ${kind}`);
  return [...byKind].map(([kind, fields]) => `# Cost: ${kind}: ${listWithin(fields, MAX_NAMES_CHARS).text}`);
}
