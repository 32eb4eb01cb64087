import {
  isIntrospectionType,
  isSpecifiedScalarType,
  printSchema,
  printType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { buildSchemaOf, readingSchema } from './introspection.js';
import { findRootPaths, type PathStep } from './paths.js';
import { mapSliced } from '../common/time-slice.js';

// What graphql_introspect reads from: an introspection result, and per includeDeprecated a prepared view of
// it (built schema, each type printed, paths from the roots). Everything derived is computed once and kept
// with the fetched schema in the cache, so that a repeated call only assembles text.

/** A fetched schema: the introspection result and its prepared views, each made once on first use. */
export class IntrospectedSchema {
  readonly #views = new Map<boolean, Promise<SchemaView>>();
  #validation: GraphQLSchema | undefined;
  #deprecated: number | undefined;

  /**
   * `annotated`: the schema as an SDL file built it (--schema), which keeps what introspection cannot carry: the
   * directives applied to fields, such as @listSize and @cost (graphql/cost.ts).
   */
  constructor(
    readonly introspection: IntrospectionQuery,
    readonly annotated?: GraphQLSchema,
  ) {
    this.#validation = annotated;
  }

  /** Whether the endpoint marks this field, input field or enum value deprecated. */
  isDeprecated(typeName: string, member: string): boolean {
    const type = this.introspection.__schema.types.find((candidate) => candidate.name === typeName);
    if (type === undefined) return false;
    const members: ReadonlyArray<{ name: string; isDeprecated?: boolean }> =
      ('fields' in type && type.fields) ||
      ('inputFields' in type && type.inputFields) ||
      ('enumValues' in type && type.enumValues) ||
      [];
    return members.some((candidate) => candidate.name === member && candidate.isDeprecated === true);
  }

  /**
   * The whole schema, deprecated members included (they may still be queried), to validate documents and
   * estimate their cost against; built on first use and kept (an SDL file's as it built it).
   */
  validationSchema(): GraphQLSchema {
    this.#validation ??= buildSchemaOf(this.introspection, true);
    return this.#validation;
  }

  /** How many fields, arguments, input fields and enum values the endpoint marks deprecated. */
  get deprecatedCount(): number {
    if (this.#deprecated === undefined) {
      let count = 0;
      const deprecated = (items: ReadonlyArray<{ isDeprecated?: boolean }> | null | undefined) =>
        items?.reduce((sum, item) => sum + (item.isDeprecated === true ? 1 : 0), 0) ?? 0;
      for (const type of this.introspection.__schema.types) {
        if ('fields' in type) {
          count += deprecated(type.fields);
          for (const field of type.fields ?? []) count += deprecated(field.args);
        }
        if ('inputFields' in type) count += deprecated(type.inputFields);
        if ('enumValues' in type) count += deprecated(type.enumValues);
      }
      this.#deprecated = count;
    }
    return this.#deprecated;
  }

  /** The view with or without deprecated fields, arguments, input fields and enum values. */
  view(includeDeprecated: boolean): Promise<SchemaView> {
    let view = this.#views.get(includeDeprecated);
    if (view === undefined) {
      view = prepareSchemaView(this.introspection, includeDeprecated);
      this.#views.set(includeDeprecated, view);
      // A view that cannot be built is not kept: the cache entry is dropped by the caller instead.
      view.catch(() => this.#views.delete(includeDeprecated));
    }
    return view;
  }
}

/** One prepared variant of a schema. */
export interface SchemaView {
  readonly schema: GraphQLSchema;
  readonly includeDeprecated: boolean;
  /** The types printSchema prints, in its order (not the built-in scalars or introspection types). */
  readonly types: readonly GraphQLNamedType[];
  /** The SDL of any type of the schema, as printSchema prints it. */
  typeSdl(name: string): string | undefined;
  /** The whole schema as printSchema prints it, when that is at most `maxChars` long. */
  wholeSdl(maxChars: number): string | undefined;
  /** The length of the whole printed schema, or a lower bound of it when it is larger than `maxChars`. */
  readonly printedLength: number;
  /** The cheapest path from a root type to each type reachable from one. */
  readonly paths: ReadonlyMap<string, readonly PathStep[]>;
}

/**
 * Builds and prints one variant of a schema. Each type is printed separately, in slices, so that a schema
 * of thousands of types keeps the event loop turning, and so that single types can be returned later.
 */
async function prepareSchemaView(
  introspection: IntrospectionQuery,
  includeDeprecated: boolean,
): Promise<SchemaView> {
  const schema = buildSchemaOf(introspection, includeDeprecated);
  const types = Object.values(schema.getTypeMap()).filter(
    (type) => !isSpecifiedScalarType(type) && !isIntrospectionType(type),
  );
  const printed = await mapSliced(types, (type) => readingSchema(() => printType(type)));
  const sdlByName = new Map(types.map((type, i) => [type.name, printed[i]!]));
  // printSchema joins the schema definition, the directives and the types with blank lines: the types
  // alone give a lower bound, which is enough to tell that a large schema does not fit.
  const typesLength = printed.reduce((sum, sdl) => sum + sdl.length + 2, -2);
  let whole: string | undefined;
  let paths: Map<string, readonly PathStep[]> | undefined;

  return {
    schema,
    includeDeprecated,
    types,
    typeSdl(name) {
      const known = sdlByName.get(name);
      if (known !== undefined) return known;
      const type = schema.getType(name);
      return type === undefined ? undefined : printType(type);
    },
    wholeSdl(maxChars) {
      if (typesLength > maxChars) return undefined;
      whole ??= readingSchema(() => printSchema(schema));
      return whole.length <= maxChars ? whole : undefined;
    },
    get printedLength() {
      return whole?.length ?? Math.max(typesLength, 0);
    },
    get paths() {
      paths ??= findRootPaths(schema);
      return paths;
    },
  };
}
