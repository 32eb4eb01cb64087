// Pass one of the shortening (result-shape.ts): the compact JSON length of every object and list of a response,
// bottom-up, and the rules of length both passes count by: a value's JSON, a string's escapes, the least a
// value can be cut to, and how much of a string fits into some room.

/** Strings and keys shorter than this are never cut: cutting many short ones would lose data for little room. */
export const MIN_CUT_STRING = 200;
/** Marker appended to a cut string or key; the note gives the lengths. */
export const CUT_MARKER = '…[cut]';
/** The shortest a cut string can be: its quotes and the marker. */
const CUT_STRING_CHARS = 2 + CUT_MARKER.length;
/** The shortest a cut key can be: its quotes, the marker, and enough of its start to tell it by. */
export const CUT_KEY_CHARS = CUT_STRING_CHARS + 40;
/** Nodes visited between looks at the clock. */
export const STEP_WORK = 2_048;

/** An object or a list of the response. */
export type Container = unknown[] | Record<string, unknown>;

/** An object's keys, and each member's length as `"key":value` in compact JSON, whole and at its least. */
export interface Members {
  readonly keys: string[];
  readonly whole: Float64Array;
  readonly least: Float64Array;
}

/** Objects with this many keys keep their members' lengths from the measuring pass, for every round. */
const MANY_KEYS = 64;

/** The compact JSON length of every object and list of a response, from one pass over it. */
export class Sizes {
  readonly #containers = new Map<object, number>();
  readonly #members = new Map<object, Members>();

  set(container: object, size: number, members?: Members): void {
    this.#containers.set(container, size);
    if (members !== undefined) this.#members.set(container, members);
  }

  has(container: object): boolean {
    return this.#containers.has(container);
  }

  /** The compact JSON length of a value of the response. */
  of(value: unknown): number {
    if (typeof value === 'object' && value !== null) return this.#containers.get(value)!;
    return leafLength(value);
  }

  /** An object's members' lengths: kept from the measuring pass for a large object, else worked out now. */
  members(node: Record<string, unknown>): Members {
    const known = this.#members.get(node);
    if (known !== undefined) return known;
    const keys = Object.keys(node);
    const members: Members = {
      keys,
      whole: new Float64Array(keys.length),
      least: new Float64Array(keys.length),
    };
    for (let i = 0; i < keys.length; i++) {
      const value = node[keys[i]!];
      const size = this.of(value);
      setMember(members, i, size, leastLength(value, size));
    }
    return members;
  }
}

/** Sets a member's lengths from its value's, adding its key's and the colon. */
function setMember(members: Members, i: number, size: number, least: number): void {
  const key = members.keys[i]!;
  const keySize = stringLength(key);
  members.whole[i] = keySize + 1 + size;
  members.least[i] = (key.length >= MIN_CUT_STRING ? Math.min(keySize, CUT_KEY_CHARS) : keySize) + 1 + least;
}

/** The compact JSON length of a value that is neither an object nor a list. */
function leafLength(value: unknown): number {
  if (typeof value === 'string') return stringLength(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4; // null
}

/** The shortest a value can be made: an empty object or list, a string cut to its marker, or itself. */
export function leastLength(value: unknown, size: number): number {
  if (typeof value === 'object' && value !== null) return 2;
  if (typeof value === 'string' && value.length >= MIN_CUT_STRING) return CUT_STRING_CHARS;
  return size;
}

/**
 * A character JSON.stringify escapes (a control character, quote or backslash), or a surrogate (escaped when
 * alone): anything but the characters it writes as they are.
 */
const ESCAPED = /[^\u0020\u0021\u0023-\u005b\u005d-\ud7ff\ue000-\uffff]/;

/** A string's length as JSON: quotes, and escapes for quotes, backslashes, control characters and lone surrogates. */
export function stringLength(text: string): number {
  // Most strings have nothing to escape: a test of the text is cheaper than a copy of it.
  return ESCAPED.test(text) ? JSON.stringify(text).length : text.length + 2;
}

/**
 * How many characters of `text` to keep so that they, the marker and the quotes take at most `room`
 * characters of JSON, never splitting a surrogate pair; and the length of that JSON.
 */
export function keptOf(text: string, room: number): { kept: number; size: number } {
  const limit = room - CUT_STRING_CHARS;
  let size = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let cost = 1;
    let width = 1;
    if (c < 0x20) cost = c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    else if (c === 0x22 || c === 0x5c) cost = 2;
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        cost = 2;
        width = 2;
      } else cost = 6; // a lone surrogate, written as \uXXXX
    }
    if (size + cost > limit) break;
    size += cost;
    i += width;
  }
  return { kept: i, size: size + CUT_STRING_CHARS };
}
/** An object or list whose JSON length is being summed: the length so far, and the next member to add. */
interface MeasureFrame {
  readonly node: Container;
  readonly keys: string[] | undefined;
  /** For an object with many keys: its members' lengths, kept. */
  readonly members: Members | undefined;
  at: number;
  size: number;
}

/** Pass one: the compact JSON length of every object and list, bottom-up, without recursion, a slice a step. */
export class Measure {
  readonly sizes = new Sizes();
  readonly #stack: MeasureFrame[];

  constructor(root: Record<string, unknown>) {
    this.#stack = [measureFrame(root)];
  }

  step(): boolean {
    const stack = this.#stack;
    for (let work = 0; work < STEP_WORK; work++) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) return true;
      const { node, keys } = frame;
      if (frame.at === (keys === undefined ? (node as unknown[]).length : keys.length)) {
        stack.pop();
        this.sizes.set(node, frame.size, frame.members);
        const parent = stack[stack.length - 1];
        if (parent !== undefined) this.#add(parent, parent.at - 1, frame.size, 2);
        continue;
      }
      const at = frame.at++;
      let child: unknown;
      if (keys === undefined) child = (node as unknown[])[at];
      else {
        const key = keys[at]!;
        if (frame.members === undefined) frame.size += stringLength(key) + 1;
        child = (node as Record<string, unknown>)[key];
      }
      if (typeof child !== 'object' || child === null) {
        const size = leafLength(child);
        this.#add(frame, at, size, leastLength(child, size));
      } else if (this.sizes.has(child)) this.#add(frame, at, this.sizes.of(child), 2);
      else stack.push(measureFrame(child as Container));
    }
    return stack.length === 0;
  }

  /** Adds the JSON length of member `at`, once that length is known. */
  #add(frame: MeasureFrame, at: number, size: number, least: number): void {
    const { members } = frame;
    if (members === undefined) frame.size += size;
    else {
      setMember(members, at, size, least);
      frame.size += members.whole[at]!;
    }
  }
}

function measureFrame(node: Container): MeasureFrame {
  const keys = Array.isArray(node) ? undefined : Object.keys(node);
  const count = keys === undefined ? (node as unknown[]).length : keys.length;
  const members =
    keys !== undefined && count >= MANY_KEYS
      ? { keys, whole: new Float64Array(count), least: new Float64Array(count) }
      : undefined;
  // Brackets, and a comma between members.
  return { node, keys, members, at: 0, size: 2 + Math.max(count - 1, 0) };
}
