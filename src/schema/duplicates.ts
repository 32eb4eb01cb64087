import {
  Kind,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type NameNode,
} from 'graphql';

// Real-world SDL files are not always valid SDL: GitHub's published schema.graphql (@octokit/graphql-schema)
// defines two fields of EnterpriseOwnerInfo twice, which graphql-js refuses to build ("can only be defined
// once"). What a server would serve is clear all the same: each name defined once. The first definition of a
// type, directive, field, argument, input field or enum value is kept, and every later one left out and named,
// as GitHub's own second definitions are the copies (their descriptions belong to other fields).

/** A definition left out because an earlier one has its name: `EnterpriseOwnerInfo.login (line 9, first at 3)`. */
export type Dropped = string;

/** The document with every name defined once (the first definition kept), and the definitions left out. */
export function firstDefinitions(document: DocumentNode): { document: DocumentNode; dropped: Dropped[] } {
  const dropped: Dropped[] = [];
  const types = new Map<string, NameNode>();
  // A type's members across its definition and its extensions, by the type's name.
  const members = new Map<string, Map<string, NameNode>>();
  const definitions: DefinitionNode[] = [];
  for (const definition of document.definitions) {
    if (isDefinitionOfName(definition)) {
      const key =
        definition.kind === Kind.DIRECTIVE_DEFINITION ? `@${definition.name.value}` : definition.name.value;
      const first = types.get(key);
      if (first !== undefined) {
        dropped.push(described(key, definition.name, first));
        continue;
      }
      types.set(key, definition.name);
    }
    definitions.push(withFirstMembers(definition, members, dropped));
  }
  return dropped.length === 0 ? { document, dropped } : { document: { ...document, definitions }, dropped };
}

/** A definition that gives a name a meaning of its own (a type or a directive), not an extension. */
function isDefinitionOfName(
  definition: DefinitionNode,
): definition is DefinitionNode & { readonly name: NameNode } {
  switch (definition.kind) {
    case Kind.OBJECT_TYPE_DEFINITION:
    case Kind.INTERFACE_TYPE_DEFINITION:
    case Kind.INPUT_OBJECT_TYPE_DEFINITION:
    case Kind.ENUM_TYPE_DEFINITION:
    case Kind.UNION_TYPE_DEFINITION:
    case Kind.SCALAR_TYPE_DEFINITION:
    case Kind.DIRECTIVE_DEFINITION:
      return true;
    default:
      return false;
  }
}

/** A type definition or extension with each member (and each field's argument) defined once. */
function withFirstMembers(
  definition: DefinitionNode,
  members: Map<string, Map<string, NameNode>>,
  dropped: Dropped[],
): DefinitionNode {
  switch (definition.kind) {
    case Kind.OBJECT_TYPE_DEFINITION:
    case Kind.OBJECT_TYPE_EXTENSION:
    case Kind.INTERFACE_TYPE_DEFINITION:
    case Kind.INTERFACE_TYPE_EXTENSION: {
      const type = definition.name.value;
      const fields = firstOf(definition.fields ?? [], type, members, dropped).map((field) =>
        withFirstArguments(field, type, dropped),
      );
      return fields.length === (definition.fields?.length ?? 0) &&
        fields.every((f, i) => f === definition.fields![i])
        ? definition
        : { ...definition, fields };
    }
    case Kind.INPUT_OBJECT_TYPE_DEFINITION:
    case Kind.INPUT_OBJECT_TYPE_EXTENSION: {
      const fields = firstOf(definition.fields ?? [], definition.name.value, members, dropped);
      return fields.length === (definition.fields?.length ?? 0) ? definition : { ...definition, fields };
    }
    case Kind.ENUM_TYPE_DEFINITION:
    case Kind.ENUM_TYPE_EXTENSION: {
      const values = firstOf(definition.values ?? [], definition.name.value, members, dropped);
      return values.length === (definition.values?.length ?? 0) ? definition : { ...definition, values };
    }
    default:
      return definition;
  }
}

/** The members of a type not defined before (in this definition, or an earlier one or extension of the type). */
function firstOf<T extends { readonly name: NameNode }>(
  list: readonly T[],
  type: string,
  members: Map<string, Map<string, NameNode>>,
  dropped: Dropped[],
): T[] {
  let seen = members.get(type);
  if (seen === undefined) members.set(type, (seen = new Map()));
  const kept: T[] = [];
  for (const member of list) {
    const first = seen.get(member.name.value);
    if (first !== undefined) dropped.push(described(`${type}.${member.name.value}`, member.name, first));
    else {
      seen.set(member.name.value, member.name);
      kept.push(member);
    }
  }
  return kept;
}

function withFirstArguments(
  field: FieldDefinitionNode,
  type: string,
  dropped: Dropped[],
): FieldDefinitionNode {
  const args = field.arguments ?? [];
  if (args.length < 2) return field;
  const seen = new Map<string, NameNode>();
  const kept: InputValueDefinitionNode[] = [];
  for (const arg of args) {
    const first = seen.get(arg.name.value);
    if (first !== undefined) {
      dropped.push(described(`${type}.${field.name.value}(${arg.name.value}:)`, arg.name, first));
    } else {
      seen.set(arg.name.value, arg.name);
      kept.push(arg);
    }
  }
  return kept.length === args.length ? field : { ...field, arguments: kept };
}

/** `Type.field (line 9, first at line 3)`, or without lines where the parse kept no locations. */
function described(name: string, later: NameNode, first: NameNode): Dropped {
  const at = later.loc?.startToken.line;
  const was = first.loc?.startToken.line;
  return at === undefined || was === undefined ? name : `${name} (line ${at}; first at line ${was})`;
}
