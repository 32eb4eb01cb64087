import { isInterfaceType, isObjectType, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { formatNumber } from '../../graphql/cost-advice.js';
import { ASSUMED_LIST_SIZE, ASSUMED_PAGE_SIZE, sliceCount } from '../../graphql/cost-list-size.js';
import { schemaCosts, type FieldCost } from '../../graphql/cost-schema.js';
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

/**
 * What a schema answer says beside a field so that a model writes cheap queries first, such as
 * `list: slice with first/last (none given: counted as 100)`; undefined for a field that adds nothing.
 * @listSize and @cost are known only from a schema built from SDL (see estimateCost).
 */
export function describeListSize(
  schema: GraphQLSchema,
  typeName: string,
  fieldName: string,
): string | undefined {
  const type = schema.getType(typeName);
  const info = type ? schemaCosts(schema).lookup(type, fieldName) : undefined;
  if (info === undefined) return undefined;
  const parts: string[] = [];
  if (info.kind !== 'single' && (info.kind === 'connection' || info.itemWeight > 0)) {
    if (info.slicing.length > 0) {
      const names = info.slicing.join('/');
      const required = info.requireOne ? ', one of them required' : '';
      parts.push(`list: slice with ${names} (${unsliced(info)})${required}`);
    } else if (info.assumedSize !== undefined) {
      parts.push(`list of at most ${formatNumber(info.assumedSize)} (@listSize)`);
    } else {
      parts.push(`list without slicing arguments (counted as ${ASSUMED_LIST_SIZE})`);
    }
    if (info.kind === 'list' && info.itemWeight !== 1)
      parts.push(`each item costs ${formatNumber(info.itemWeight)}`);
  }
  if (info.weight > 0) parts.push(`cost ${formatNumber(info.weight)} per call`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** What a sliced list counts when the query gives no slicing value: `default 10`, `none given: counted as 100`. */
function unsliced(info: FieldCost): string {
  const assumed = info.assumedSize ?? ASSUMED_PAGE_SIZE;
  let largest: number | undefined;
  for (const value of info.defaults) {
    if (value === undefined) continue;
    if (largest === undefined || sliceCount(value, assumed) > sliceCount(largest, assumed)) largest = value;
  }
  if (largest === undefined) return `none given: counted as ${formatNumber(assumed)}`;
  const counted = sliceCount(largest, assumed);
  return counted === largest
    ? `default ${formatNumber(counted)}`
    : `default ${formatNumber(largest)}, counted as ${formatNumber(counted)}`;
}
