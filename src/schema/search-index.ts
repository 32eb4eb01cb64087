import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
} from 'graphql';
import {
  deriveImplications,
  impliedByField,
  type FieldImplications,
  type Implications,
} from './search-implied.js';
import { singular, splitWords, stem, textWords as wordsOfText } from './search-words.js';
import type { SchemaView } from './view.js';
import { enumValueLine, fieldSignature, inputValueLine } from './sdl-lines.js';
import { createYielder, mapSliced } from '../common/time-slice.js';

// The search index of a schema view: every type, field, input field and enum value is a document, whose
// words sit in fields that count differently (search-rank.ts weighs them): its own name, its type's name
// (for members), its description, what it takes as input (a field's arguments, and a mutation's own input
// type), and what the schema implies about it (search-implied.ts). Built once per view, in slices.

/** The fields of a document, in the order of their weights in search-rank.ts. */
const FIELD = {
  name: 0,
  owner: 1,
  description: 2,
  input: 3,
  returns: 4,
  actsOn: 5,
  conventions: 6,
  aliases: 7,
} as const;
export const FIELD_COUNT = 8;

export type ItemKind = 'type' | 'field' | 'inputField' | 'enumValue';

/** One type or member. */
export interface SearchItem {
  readonly kind: ItemKind;
  /** The type itself, or the type the member belongs to. */
  readonly type: GraphQLNamedType;
  /** `Repository` or `Repository.issues`. */
  readonly coordinate: string;
  readonly description: string | null | undefined;
  /** The member's SDL line, for members. */
  readonly line?: string;
  /** Its name's words, and for a member its type's and its own: their runs, plain and in the singular. */
  readonly joined: readonly string[];
  readonly joinedSingular: readonly string[];
  /** The stems of its type's name (unless a root type) and its own, in order. */
  readonly nameStems: readonly string[];
  /** The mutation whose input or payload this type is (or whose input or payload holds this member). */
  readonly plumbingOf: string | undefined;
  /** Members with the same SDL line (the same member on several types) share a group; a type is its own. */
  readonly group: number;
}

/** A word of the index: the items that hold it, and how often in each of their fields. */
export interface Posting {
  readonly word: string;
  readonly singular: string;
  readonly stem: string;
  readonly ids: readonly number[];
  /** Per id, in the order of `ids`: its count in each field, COUNT_BITS bits a field (fieldCount reads it). */
  readonly counts: readonly number[];
}

const COUNT_BITS = 4;
const MAX_COUNT = (1 << COUNT_BITS) - 1;

/** How often a posting's word is in one field of its `at`th item. */
export function fieldCount(posting: Posting, at: number, field: number): number {
  return (posting.counts[at]! >>> (field * COUNT_BITS)) & MAX_COUNT;
}

/** A schema's words, indexed once per view. */
export interface SearchIndex {
  readonly view: SchemaView;
  readonly items: readonly SearchItem[];
  /** Every word, once. */
  readonly postings: readonly Posting[];
  readonly byWord: ReadonlyMap<string, Posting>;
  /** FIELD_COUNT word counts per item. */
  readonly lengths: Float32Array;
  /** The average of each field's length over the items. */
  readonly averageLengths: readonly number[];
  /** Steps from a root field to each item (a member is one more than its type); -1 where none leads. */
  readonly depths: Int16Array;
  /** How many groups of alike members there are (SearchItem.group). */
  readonly groupCount: number;
  /** What the schema implies about actions (search-implied.ts). */
  readonly implied: Pick<Implications, 'actions' | 'synonyms'>;
}

interface Draft {
  readonly item: SearchItem;
  readonly fields: ReadonlyArray<readonly string[]>;
  /** The whole name as one word (`oauthapplication`), which "oauth" starts; not counted in its length. */
  readonly whole: string;
}

/** Indexes every type, field, input field and enum value of a view. */
export async function buildSearchIndex(view: SchemaView): Promise<SearchIndex> {
  // Mostly built in the background, after an answer (answers/answer.ts): short slices keep the wait of the
  // calls that come meanwhile short.
  const yieldNow = createYielder(1);
  const pause = async () => {
    const wait = yieldNow();
    if (wait !== undefined) await wait;
  };
  const implied = await deriveImplications(view.schema, pause);
  const builder = new IndexBuilder();
  const context: DraftContext = { view, implied, text: new Map(), groups: new Map() };
  for (const type of view.types) {
    // Types of hundreds of fields (GitHub's Mutation) are drafted a member at a time between pauses.
    for (const draft of draftsOf(context, type)) {
      builder.add(draft);
      await pause();
    }
  }
  return builder.finish(view, implied, context.groups.size);
}

/** What the documents of every type share while the index is built. */
interface DraftContext {
  readonly view: SchemaView;
  readonly implied: Implications;
  /** The indexed words of each text: descriptions repeat (every connection's `after` argument). */
  readonly text: Map<string, readonly string[]>;
  /** A group per member kind and SDL line. */
  readonly groups: Map<string, number>;
}

class IndexBuilder {
  readonly #items: SearchItem[] = [];
  readonly #postings = new Map<string, { ids: number[]; counts: number[] }>();
  readonly #lengths: number[] = [];

  add({ item, fields, whole }: Draft): void {
    const id = this.#items.push(item) - 1;
    fields.forEach((words, field) => {
      for (const word of words) this.#count(id, field, word);
      this.#lengths.push(words.length);
    });
    if (!fields[FIELD.name]!.includes(whole)) this.#count(id, FIELD.name, whole);
  }

  #count(id: number, field: number, word: string): void {
    let posting = this.#postings.get(word);
    if (posting === undefined) {
      posting = { ids: [], counts: [] };
      this.#postings.set(word, posting);
    }
    if (posting.ids[posting.ids.length - 1] !== id) {
      posting.ids.push(id);
      posting.counts.push(0);
    }
    const at = posting.counts.length - 1;
    // Counts stop at MAX_COUNT: past a few, more of the same word says nothing more (saturation).
    if (((posting.counts[at]! >>> (field * COUNT_BITS)) & MAX_COUNT) < MAX_COUNT) {
      posting.counts[at]! += 1 << (field * COUNT_BITS);
    }
  }

  async finish(view: SchemaView, implied: Implications, groupCount: number): Promise<SearchIndex> {
    const postings = await mapSliced(
      this.#postings,
      ([word, { ids, counts }]) => ({ word, singular: singular(word), stem: stem(word), ids, counts }),
      1,
    );
    const lengths = Float32Array.from(this.#lengths);
    const averageLengths = Array.from({ length: FIELD_COUNT }, (_, field) => {
      let sum = 0;
      for (let i = field; i < lengths.length; i += FIELD_COUNT) sum += lengths[i]!;
      return Math.max(sum / Math.max(this.#items.length, 1), 1);
    });
    const depths = Int16Array.from(this.#items, (item) => {
      const path = view.paths.get(item.type.name);
      return path === undefined ? -1 : path.length + (item.kind === 'type' ? 0 : 1);
    });
    return {
      view,
      items: this.#items,
      depths,
      postings,
      byWord: new Map(postings.map((posting) => [posting.word, posting])),
      lengths,
      averageLengths,
      groupCount,
      implied,
    };
  }
}

/** Text words worth indexing: a schema's descriptions hold many that no search keeps. */
function textWords(context: DraftContext, text: string | null | undefined): readonly string[] {
  if (text === null || text === undefined || text === '') return [];
  let words = context.text.get(text);
  if (words === undefined) {
    words = wordsOfText(text);
    context.text.set(text, words);
  }
  return words;
}

/** What the documents of one type share: its name's words in their forms, and what the schema says of it. */
interface TypeWords {
  readonly type: GraphQLNamedType;
  readonly words: readonly string[];
  readonly singular: readonly string[];
  /** Its name's stems, or none for a root type (Mutation.addStar is named addStar). */
  readonly stems: readonly string[];
  /** The names the type goes by elsewhere: its members', for "the customer's email" (User.email). */
  readonly aliases: readonly string[];
  readonly plumbingOf: string | undefined;
}

/** One member to index. */
interface Member {
  readonly kind: ItemKind;
  readonly name: string;
  readonly description: string | null | undefined;
  readonly line: string;
  readonly input?: readonly string[];
  readonly implied?: Partial<FieldImplications>;
  /** The names of the types it is on: its type's, and the interfaces' that declare it. */
  readonly owners?: readonly string[];
}

/** The documents of one type: the type itself, then its members, each made when asked for. */
function* draftsOf(context: DraftContext, type: GraphQLNamedType): Generator<Draft> {
  const { view, implied } = context;
  const words = splitWords(type.name);
  const schema = view.schema;
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  const of: TypeWords = {
    type,
    words,
    singular: words.map(singular),
    stems: roots.includes(type as never) ? [] : words.map(stem),
    aliases: implied.anchors.get(type.name) ?? [],
    plumbingOf: implied.plumbing.get(type.name),
  };
  const item: SearchItem = {
    kind: 'type',
    type,
    coordinate: type.name,
    description: type.description,
    joined: [words.join('')],
    joinedSingular: [of.singular.join('')],
    nameStems: words.map(stem),
    plumbingOf: of.plumbingOf,
    group: -1,
  };
  const description = textWords(context, type.description);
  yield {
    item,
    fields: [words, [], description, [], [], [], [], of.aliases],
    whole: type.name.toLowerCase(),
  };
  if (isObjectType(type) || isInterfaceType(type)) {
    const interfaces = type.getInterfaces();
    for (const field of Object.values(type.getFields())) {
      const declaring = interfaces.filter((known) => known.getFields()[field.name] !== undefined);
      yield memberDraft(context, of, {
        kind: 'field',
        name: field.name,
        description: field.description,
        line: fieldSignature(field),
        input: inputWords(context, field),
        implied: impliedByField(schema, implied, type, field),
        // A member an interface declares belongs to it too: Repository.stargazerCount is Starrable's.
        owners: [...words, ...declaring.flatMap((known) => splitWords(known.name))],
      });
    }
  } else if (isInputObjectType(type)) {
    for (const field of Object.values(type.getFields())) {
      const held = splitWords(getNamedType(field.type).name);
      const line = inputValueLine(field);
      const member = { kind: 'inputField', name: field.name, description: field.description, line } as const;
      yield memberDraft(context, of, { ...member, implied: { returns: held } });
    }
  } else if (isEnumType(type)) {
    for (const value of type.getValues()) {
      const line = enumValueLine(value);
      yield memberDraft(context, of, {
        kind: 'enumValue',
        name: value.name,
        description: value.description,
        line,
      });
    }
  }
}

function memberDraft(context: DraftContext, of: TypeWords, member: Member): Draft {
  const { kind, name, line, input = [], implied = {}, owners = of.words } = member;
  const own = splitWords(name);
  const ownSingular = own.map(singular);
  const key = `${kind} ${line}`;
  let group = context.groups.get(key);
  if (group === undefined) {
    group = context.groups.size;
    context.groups.set(key, group);
  }
  const item: SearchItem = {
    kind,
    type: of.type,
    coordinate: `${of.type.name}.${name}`,
    description: member.description,
    line,
    joined: [own.join(''), of.words.join('') + own.join('')],
    joinedSingular: [ownSingular.join(''), of.singular.join('') + ownSingular.join('')],
    nameStems: [...of.stems, ...own.map(stem)],
    plumbingOf: of.plumbingOf,
    group,
  };
  const { returns = [], actsOn = [], conventions = [] } = implied;
  const description = textWords(context, member.description);
  const fields = [own, owners, description, input, returns, actsOn, conventions, of.aliases];
  return { item, fields, whole: name.toLowerCase() };
}

/** The words of a field's arguments, and of the fields of an input type that only this field takes. */
function inputWords(context: DraftContext, field: GraphQLField<unknown, unknown>): string[] {
  const words: string[] = [];
  for (const arg of field.args) {
    words.push(...splitWords(arg.name), ...textWords(context, arg.description));
    const input = getNamedType(arg.type);
    if (isInputObjectType(input) && context.implied.plumbing.get(input.name) === field.name) {
      for (const inputField of Object.values(input.getFields())) {
        words.push(...splitWords(inputField.name), ...textWords(context, inputField.description));
      }
    }
  }
  return words;
}
