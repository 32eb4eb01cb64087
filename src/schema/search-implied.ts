import {
  getNamedType,
  isAbstractType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { firstSentence } from './sdl-lines.js';
import { singular, splitWords, stem, textWords } from './search-words.js';

// What a schema says about its members beyond their own names, read from the schema alone:
//   - the names a type goes by elsewhere: the fields that return it (`defaultBranchRef: Ref` calls a Ref a
//     branch), as the text of links tells a search engine what a page is about;
//   - what a mutation acts on: the types its input's `…Id` fields and its payload's fields name, and, for an
//     interface, the types that implement it (`lockLockable(input: {lockableId})`, Lockable implemented by
//     Issue and PullRequest: it locks an issue);
//   - GraphQL's conventions, as words no schema spells (CONVENTION): counts (`…Count`, a connection's
//     `totalCount`), the one who asks (`viewer`, `me`), people (what the viewer is), and times (`…At`).

/** Words that stand for a convention: searchTerms turns "how many" into count and "my" into me. */
const CONVENTION = { count: ':count', me: ':me', person: ':person', time: ':time' } as const;

/** The search words each convention answers. */
export const CONVENTION_OF_TERM: Readonly<Record<string, string>> = {
  count: CONVENTION.count,
  me: CONVENTION.me,
  viewer: CONVENTION.me,
  who: CONVENTION.person,
  whom: CONVENTION.person,
  when: CONVENTION.time,
};

/** Words that only hint at a convention ("who" wants a person): they count half, and need not match. */
export const HINTS: ReadonlySet<string> = new Set(['who', 'whom', 'when']);

/** Root fields that are the caller by convention; a root field described as the authenticated user is too. */
const VIEWER_NAMES = new Set(['viewer', 'me', 'currentUser', 'self', 'myself', 'whoami']);
/** The most names a type goes by elsewhere that count. */
const MAX_ANCHORS = 12;
/** An interface implemented by more types than this (Node) says nothing about what a member acts on. */
const MAX_IMPLEMENTATIONS = 12;

/** What the schema implies about its types and fields. */
export interface Implications {
  /** Words of the names of the fields that return a type, less the type's own words. */
  readonly anchors: ReadonlyMap<string, readonly string[]>;
  /** Input and payload types that belong to one mutation: the name of the mutation field. */
  readonly plumbing: ReadonlyMap<string, string>;
  /** Types whose values are people: the viewer's type and its small interfaces. */
  readonly people: ReadonlySet<string>;
  /** The root field that is the caller, if the schema has one, and its type. */
  readonly viewer: string | undefined;
  readonly viewerType: string | undefined;
  /** The words that name a mutation's action (add, delete; productCreate's create), not a type. */
  readonly actions: ReadonlySet<string>;
  /**
   * Stems a schema uses for the same action: a mutation named delete… described as "Removes …" makes remove
   * a synonym of delete, where at least two mutations say so.
   */
  readonly synonyms: ReadonlyMap<string, readonly string[]>;
}

/** Reads what a schema implies, once per view (the search index holds it), pausing between types. */
export async function deriveImplications(
  schema: GraphQLSchema,
  pause: () => Promise<void>,
): Promise<Implications> {
  const links = new Map<string, Map<string, number>>();
  const returnedBy = new Map<string, string[]>();
  const inputUses = new Map<string, string[]>();
  const mutation = schema.getMutationType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type) || isInterfaceType(type)) {
      // A connection's nodes and an edge's node name nothing: the field that returns the connection does.
      const plumbingOfLists = nodeTypeOf(type) !== undefined || isEdge(type);
      for (const field of Object.values(type.getFields())) {
        const returned = getNamedType(field.type);
        const target = returned.name;
        // A field that returns a connection names its nodes too: `customers: UserConnection` calls users customers.
        for (const linked of [returned, nodeTypeOf(returned)]) {
          if (linked === undefined || plumbingOfLists) continue;
          const words = links.get(linked.name) ?? new Map<string, number>();
          for (const word of splitWords(field.name)) words.set(word, (words.get(word) ?? 0) + 1);
          links.set(linked.name, words);
        }
        push(returnedBy, target, `${type.name}.${field.name}`);
        for (const arg of field.args)
          push(inputUses, getNamedType(arg.type).name, `${type.name}.${field.name}`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        push(inputUses, getNamedType(field.type).name, `${type.name}.${field.name}`);
      }
    }
    await pause();
  }
  const anchors = new Map<string, readonly string[]>();
  for (const [name, words] of links) {
    const own = new Set(splitWords(name).map(singular));
    // The names used most: a type returned by hundreds of fields (User) would otherwise go by every word.
    const named = [...words].filter(([word]) => !own.has(singular(word)));
    named.sort((a, b) => b[1] - a[1]);
    anchors.set(
      name,
      named.slice(0, MAX_ANCHORS).map(([word]) => word),
    );
    await pause();
  }
  // An input or payload type used by one mutation field and nothing else is that mutation's plumbing.
  const plumbing = new Map<string, string>();
  for (const uses of [returnedBy, inputUses]) {
    for (const [name, by] of uses) {
      if (by.length === 1 && mutation && by[0]!.startsWith(`${mutation.name}.`)) {
        plumbing.set(name, by[0]!.slice(mutation.name.length + 1));
      }
    }
  }
  const viewerField = findViewer(schema);
  const people = new Set<string>();
  if (viewerField !== undefined) {
    const person = getNamedType(viewerField.type);
    people.add(person.name);
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isAbstractType(type) || !isObjectType(person)) continue;
      const possible = schema.getPossibleTypes(type);
      if (possible.length <= MAX_IMPLEMENTATIONS && possible.includes(person)) people.add(type.name);
      await pause();
    }
  }
  const viewerType = viewerField === undefined ? undefined : getNamedType(viewerField.type).name;
  await pause();
  const actions = actionsOf(schema);
  await pause();
  return { anchors, plumbing, people, viewer: viewerField?.name, viewerType, ...actions };
}

/** Words at one end of this many mutation names tell which end holds the verbs. */
const MIN_ACTION_USES = 3;

/**
 * The action words of a schema's mutations: the first or last word of the names of several mutations
 * (GitHub's addStar, Saleor's productCreate) that is not itself a type's name; and the verbs their
 * descriptions use for them instead (sellerOwnerDelete: "Remove the owner …").
 */
function actionsOf(schema: GraphQLSchema): Pick<Implications, 'actions' | 'synonyms'> {
  const mutation = schema.getMutationType();
  const names = (mutation ? Object.keys(mutation.getFields()) : []).map(splitWords);
  const typeNames = new Set(Object.keys(schema.getTypeMap()).map((name) => singular(name.toLowerCase())));
  // A schema names its mutations verb first (addStar) or verb last (productCreate): the end whose repeated
  // words name more of them holds the verbs.
  const ends = [(words: string[]) => words[0], (words: string[]) => words[words.length - 1]].map((end) => {
    const uses = new Map<string, number>();
    for (const words of names) {
      const word = end(words);
      if (word !== undefined && word.length >= 3 && !typeNames.has(singular(word))) {
        uses.set(word, (uses.get(word) ?? 0) + 1);
      }
    }
    const named = [...uses].reduce((sum, [, count]) => sum + (count >= MIN_ACTION_USES ? count : 0), 0);
    return { end, verbs: [...uses.keys()], named };
  });
  const { end, verbs } = ends[0]!.named >= ends[1]!.named ? ends[0]! : ends[1]!;
  const actions = new Set(verbs);
  const pairs = new Map<string, number>();
  for (const field of mutation ? Object.values(mutation.getFields()) : []) {
    const said = stem(textWords(field.description ?? '')[0] ?? '');
    const verb = end(splitWords(field.name)) ?? '';
    const action = stem(verb);
    if (actions.has(verb) && said.length >= 3 && said !== action && !typeNames.has(said)) {
      const key = `${action} ${said}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
  }
  const synonyms = new Map<string, string[]>();
  for (const [key, uses] of pairs) {
    if (uses < 2) continue;
    const [action, said] = key.split(' ') as [string, string];
    push(synonyms, action, said);
    push(synonyms, said, action);
  }
  return { actions, synonyms };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const values = map.get(key);
  if (values === undefined) map.set(key, [value]);
  else values.push(value);
}

function findViewer(schema: GraphQLSchema): GraphQLField<unknown, unknown> | undefined {
  const query = schema.getQueryType();
  if (query === undefined || query === null) return undefined;
  return Object.values(query.getFields()).find(
    (field) =>
      isObjectType(getNamedType(field.type)) &&
      field.args.every((arg) => !isNonNullType(arg.type)) &&
      (VIEWER_NAMES.has(field.name) ||
        /\b(?:currently )?(?:authenticated|logged[- ]in) user\b/i.test(field.description ?? '')),
  );
}

/** The type a list of `type` holds: a connection's node type (Relay's `edges { node }`, or `nodes` beside `pageInfo`). */
function nodeTypeOf(type: GraphQLNamedType): GraphQLNamedType | undefined {
  if (!isObjectType(type)) return undefined;
  const fields = type.getFields();
  const edge = fields.edges === undefined ? undefined : getNamedType(fields.edges.type);
  if (edge !== undefined && isEdge(edge))
    return getNamedType((edge as GraphQLObjectType).getFields().node!.type);
  if (fields.nodes !== undefined && fields.pageInfo !== undefined) return getNamedType(fields.nodes.type);
  return undefined;
}

/** Whether a type is a connection's edge: a node and its cursor. */
function isEdge(type: GraphQLNamedType): boolean {
  return isObjectType(type) && type.getFields().node !== undefined && type.getFields().cursor !== undefined;
}

/** Whether a field's value can be counted: a list, or a connection with a count. */
function countable(type: GraphQLOutputType): boolean {
  const unwrapped = isNonNullType(type) ? type.ofType : type;
  if (isListType(unwrapped)) return true;
  const named = getNamedType(type);
  return isObjectType(named) && ['totalCount', 'count'].some((name) => named.getFields()[name] !== undefined);
}

const whatTypesAre = new WeakMap<GraphQLNamedType, readonly string[]>();

/** What a type is: its description's first sentence's words and the names it goes by; made once a type. */
function whatItIs(implied: Implications, type: GraphQLNamedType): readonly string[] {
  // A scalar's description and the names of the fields that return it (createdAt: DateTime) say nothing.
  if (isScalarType(type)) return [];
  let words = whatTypesAre.get(type);
  if (words === undefined) {
    words = [...textWords(firstSentence(type.description)), ...(implied.anchors.get(type.name) ?? [])];
    whatTypesAre.set(type, words);
  }
  return words;
}

/** For a count (`stargazerCount`), the description words of the list it counts (`stargazers`). */
function countedList(owner: GraphQLNamedType, field: GraphQLField<unknown, unknown>): string[] {
  const counted = /^(.+)Count$/.exec(field.name)?.[1];
  if (counted === undefined || !(isObjectType(owner) || isInterfaceType(owner))) return [];
  const wanted = splitWords(counted).map(stem).join('');
  const list = Object.values(owner.getFields()).find(
    (candidate) => candidate !== field && splitWords(candidate.name).map(stem).join('') === wanted,
  );
  return list === undefined ? [] : textWords(list.description ?? '');
}

function isTime(type: GraphQLNamedType, name: string): boolean {
  return (isScalarType(type) && /date|time/i.test(type.name)) || /(?:At|Date|On)$/.test(name);
}

/** What an output field implies, in three kinds of words (search-index.ts gives each its own weight). */
export interface FieldImplications {
  /** Its type's name, and a connection's node type's. */
  readonly returns: readonly string[];
  /**
   * The things it acts on: the types its input names by id (and the names those go by elsewhere), its
   * input and payload hold, an interface's or union's types; for a count, the words of the list it counts.
   */
  readonly actsOn: readonly string[];
  /** The conventions it answers (CONVENTION). */
  readonly conventions: readonly string[];
}

/** What the schema implies about one output field of `owner`. */
export function impliedByField(
  schema: GraphQLSchema,
  implied: Implications,
  owner: GraphQLNamedType,
  field: GraphQLField<unknown, unknown>,
): FieldImplications {
  const named = getNamedType(field.type);
  const node = nodeTypeOf(named);
  const payload = implied.plumbing.has(named.name) && isObjectType(named);
  // What it returns, and what that is: the returned type's description's first sentence, and the names it
  // goes by elsewhere (`refs: RefConnection` lists branches: a Ref is a `defaultBranchRef`).
  const returned = node ?? named;
  const returns = payload
    ? []
    : [...splitWords(named.name), ...(node ? splitWords(node.name) : []), ...whatItIs(implied, returned)];
  const subjects = new Set<GraphQLNamedType>();
  const byId = new Set<GraphQLNamedType>();
  for (const arg of field.args) subjectsOfInput(schema, arg.type, subjects, byId, implied);
  if (payload) {
    for (const payloadField of Object.values(named.getFields()))
      subjects.add(getNamedType(payloadField.type));
  }
  const actsOn: string[] = [];
  for (const subject of byId) actsOn.push(...(implied.anchors.get(subject.name) ?? []));
  for (const subject of new Set([...subjects, ...byId, named, ...(node ? [node] : [])])) {
    if (isSpecifiedScalarType(subject)) continue;
    if (subjects.has(subject) || byId.has(subject)) actsOn.push(...splitWords(subject.name));
    if (isAbstractType(subject)) {
      const possible = schema.getPossibleTypes(subject);
      if (possible.length <= MAX_IMPLEMENTATIONS)
        for (const type of possible) actsOn.push(...splitWords(type.name));
    }
  }
  actsOn.push(...countedList(owner, field));
  return { returns, actsOn, conventions: conventionsOf(schema, implied, owner, field, node) };
}

function conventionsOf(
  schema: GraphQLSchema,
  implied: Implications,
  owner: GraphQLNamedType,
  field: GraphQLField<unknown, unknown>,
  node: GraphQLNamedType | undefined,
): string[] {
  const named = getNamedType(field.type);
  const conventions: string[] = [];
  if (countable(field.type) || /^(?:total|num)[A-Z]|Count$/.test(field.name))
    conventions.push(CONVENTION.count);
  if (field.name === implied.viewer && owner === schema.getQueryType()) {
    conventions.push(CONVENTION.me, CONVENTION.person);
  } else if (owner.name === implied.viewerType) {
    // What the caller has is the viewer's: "my repositories" is the viewer's type's repositories.
    conventions.push(CONVENTION.me);
  }
  if (implied.people.has(named.name) || (node !== undefined && implied.people.has(node.name))) {
    conventions.push(CONVENTION.person);
  }
  if (isTime(named, field.name)) conventions.push(CONVENTION.time);
  return conventions;
}

/** Adds to `subjects` the types an input names by id (`lockableId` → Lockable) or holds, one level deep. */
function subjectsOfInput(
  schema: GraphQLSchema,
  type: GraphQLInputType,
  subjects: Set<GraphQLNamedType>,
  byId: Set<GraphQLNamedType>,
  implied: Implications,
): void {
  const named = getNamedType(type);
  if (!isInputObjectType(named) || !implied.plumbing.has(named.name)) return;
  for (const field of Object.values(named.getFields())) {
    const idOf = /^(.+?)Ids?$|^(.+?)IDs?$/.exec(field.name);
    const target = idOf === null ? undefined : typeNamed(schema, idOf[1] ?? idOf[2]!);
    if (target !== undefined) byId.add(target);
    const held = getNamedType(field.type);
    if (!isScalarType(held)) subjects.add(held);
  }
}

const typeNamesByLowercase = new WeakMap<GraphQLSchema, Map<string, GraphQLNamedType>>();

/** The type named by a field's words, whatever their case: `pullRequest` → PullRequest. */
function typeNamed(schema: GraphQLSchema, name: string): GraphQLNamedType | undefined {
  let byLowercase = typeNamesByLowercase.get(schema);
  if (byLowercase === undefined) {
    byLowercase = new Map(Object.values(schema.getTypeMap()).map((type) => [type.name.toLowerCase(), type]));
    typeNamesByLowercase.set(schema, byLowercase);
  }
  return byLowercase.get(name.toLowerCase());
}
