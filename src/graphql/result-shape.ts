// A GraphQL response too long for a model's context (clients refuse tool results of over ~25,000 tokens, or
// fill the context with them) is shortened to a budget of characters of compact JSON, and of tokens (about half
// as many, estimated: dense text such as CJK or emoji keeps fewer characters), keeping its shape.
//
// Two passes, each visiting a node once whatever the response's depth and fan-out: one measures the compact
// JSON length of every object and list, bottom-up; the other builds the shortened copy top-down, giving each
// part a share of the budget. An object's members share its room fairly: those that fit are kept whole and
// the largest are cut (each at least a useful share, else the last ones are dropped); a list keeps its first
// items whole and cuts the one that no longer fits; a long string or key keeps its start and a marker. What
// a part leaves unused goes on to the next one. `errors` are cut last and never away. Both passes run in
// slices, so that pings and other calls are answered meanwhile. What was cut is reported, so that the model
// can ask for the rest (smaller pages, fewer fields, the next page).

import { createYielder } from '../common/time-slice.js';
import { denserBudget, MAX_TOKENS_PER_CHAR, TOKENS_PER_BUDGET_CHAR } from './token-estimate.js';
import { thousands } from '../common/text.js';

/** One cut: a list that kept its first items, an object that kept some keys, a string or key that kept its start. */
export interface Cut {
  /** Where, as a JavaScript-like path: `data.books`, `data.author.books[3].title` (long ones abridged). */
  readonly path: string;
  readonly kind: 'list' | 'object' | 'string' | 'key';
  /** Items, keys, or characters kept, and how many there were. */
  readonly kept: number;
  readonly total: number;
  /** For a list or object that kept nothing: how deep it is (the response is 1), where the nesting was cut. */
  readonly depth?: number;
}

export interface ShapedResponse {
  readonly value: Record<string, unknown>;
  /** The budget of characters it was shortened to: the option's, or less for dense text. */
  readonly maxChars: number;
  readonly cuts: readonly Cut[];
  /** Its compact JSON. */
  readonly text: string;
  /** Compact JSON length before and after. */
  readonly originalChars: number;
  readonly chars: number;
}

/** Strings and keys shorter than this are never cut: cutting many short ones would lose data for little room. */
const MIN_CUT_STRING = 200;
/** Marker appended to a cut string or key; the note gives the lengths. */
export const CUT_MARKER = '…[cut]';
/** The shortest a cut string can be: its quotes and the marker. */
const CUT_STRING_CHARS = 2 + CUT_MARKER.length;
/** The shortest a cut key can be: its quotes, the marker, and enough of its start to tell it by. */
const CUT_KEY_CHARS = CUT_STRING_CHARS + 40;
/** The least a cut member of an object is given (or a quarter of the object's room, if less). */
const MIN_SHARE = 1_000;
/** A list item after the first is cut to fit only into this much room (or a tenth of the list's), or more. */
const MIN_PARTIAL_ITEM = 1_000;
/** Nodes visited between looks at the clock. */
const STEP_WORK = 2_048;
/** Rounds of shortening to a smaller budget of characters, for text denser than the estimate allows. */
const TOKEN_ROUNDS = 6;

type Container = unknown[] | Record<string, unknown>;

/**
 * `response`, whose compact JSON is `text`, shortened to at most `maxChars` characters and about half as many
 * tokens (estimateTokens); undefined when it fits already (or `maxChars` is 0). Text denser than that ratio
 * is shortened again to a budget of characters in proportion. The response is not changed: the parts kept
 * whole are shared.
 */
export async function fitResponse(
  response: Record<string, unknown>,
  maxChars: number,
  text = JSON.stringify(response),
): Promise<ShapedResponse | undefined> {
  if (maxChars <= 0) return undefined;
  let budget = maxChars;
  if (text.length <= maxChars) {
    const denser = denserBudget(text, maxChars);
    if (denser === undefined) return undefined;
    budget = denser;
  }
  const pause = createYielder();
  const sizes = await measure(response, pause);
  // Any text of this many characters is within the budget of tokens, however dense.
  const safeBudget = Math.floor((maxChars * TOKENS_PER_BUDGET_CHAR - 1) / MAX_TOKENS_PER_CHAR);
  for (let round = 1; ; round++) {
    const shaped = await build(response, sizes, budget, text.length, pause);
    const denser = denserBudget(shaped.text, maxChars);
    if (denser === undefined || budget <= safeBudget) return shaped;
    budget = round >= TOKEN_ROUNDS ? safeBudget : Math.max(safeBudget, Math.min(denser, budget - 1));
  }
}

/**
 * `response` shortened so that its compact JSON is at most `maxChars` long (characters only: fitResponse
 * also holds the tokens), or undefined when it fits already (or `maxChars` is 0). `chars` is its compact
 * JSON length, when the caller has it.
 */
export async function shapeResponse(
  response: Record<string, unknown>,
  maxChars: number,
  chars = JSON.stringify(response).length,
): Promise<ShapedResponse | undefined> {
  if (maxChars <= 0 || chars <= maxChars) return undefined;
  const pause = createYielder();
  return build(response, await measure(response, pause), maxChars, chars, pause);
}

/** A piece of work done a slice at a time: `step` does some and says whether all is done. */
interface Sliced {
  step(): boolean;
}

async function finish(work: Sliced, pause: () => Promise<void> | undefined): Promise<void> {
  while (!work.step()) {
    const turn = pause();
    if (turn !== undefined) await turn;
  }
}

async function measure(
  response: Record<string, unknown>,
  pause: () => Promise<void> | undefined,
): Promise<Sizes> {
  const measuring = new Measure(response);
  await finish(measuring, pause);
  return measuring.sizes;
}

async function build(
  response: Record<string, unknown>,
  sizes: Sizes,
  maxChars: number,
  originalChars: number,
  pause: () => Promise<void> | undefined,
): Promise<ShapedResponse> {
  const building = new Build(response, sizes, maxChars);
  await finish(building, pause);
  const value = building.value!;
  const text = JSON.stringify(value);
  const cuts = building.sortedCuts();
  return { value, maxChars, cuts, text, originalChars, chars: text.length };
}

/** An object's keys, and each member's length as `"key":value` in compact JSON, whole and at its least. */
interface Members {
  readonly keys: string[];
  readonly whole: Float64Array;
  readonly least: Float64Array;
}

/** Objects with this many keys keep their members' lengths from the measuring pass, for every round. */
const MANY_KEYS = 64;

/** The compact JSON length of every object and list of a response, from one pass over it. */
class Sizes {
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
function leastLength(value: unknown, size: number): number {
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
function stringLength(text: string): number {
  // Most strings have nothing to escape: a test of the text is cheaper than a copy of it.
  return ESCAPED.test(text) ? JSON.stringify(text).length : text.length + 2;
}

/**
 * How many characters of `text` to keep so that they, the marker and the quotes take at most `room`
 * characters of JSON, never splitting a surrogate pair; and the length of that JSON.
 */
function keptOf(text: string, room: number): { kept: number; size: number } {
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

/** Pass one: the compact JSON length of every object and list, bottom-up, without recursion. */
class Measure implements Sliced {
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

/** An object or list being built: what it may take, what it has taken, and what it has kept. */
interface BuildFrame {
  readonly node: Container;
  /** An object's members; undefined for a list. */
  readonly members: Members | undefined;
  readonly room: number;
  readonly path: PathNode;
  /** Where its cut goes among the cuts: outer cuts are listed first. */
  readonly cutAt: number;
  /** Characters taken so far: brackets, commas, and the members kept. */
  used: number;
  at: number;
  kept: number;
  /** Whether the rest of its members are left out. */
  done: boolean;
  /** A list's items, or an object's entries, kept so far. */
  readonly out: unknown[];
  /** An object's share of room for each member, -1 for one left out. */
  shares: Int32Array | undefined;
  /** Room an earlier member of an object left unused, for the next one. */
  carry: number;
  /** The object's member being built: its room, and its key and the key's length as written. */
  memberRoom: number;
  memberKey: string;
  memberKeySize: number;
  /** Keys of the object as written, once a key is cut: a cut key must not collide with another. */
  written: Set<string> | undefined;
}

/** Pass two: the shortened copy, top-down within a budget, without recursion. */
class Build implements Sliced {
  /** Cuts in the order of the response, with holes where an object or list was kept whole. */
  readonly #cuts: Array<Cut | undefined> = [];
  /** Each cut's depth. */
  readonly #depths: number[] = [];
  value: Record<string, unknown> | undefined;
  readonly #stack: BuildFrame[] = [];

  constructor(
    root: Record<string, unknown>,
    readonly sizes: Sizes,
    readonly budget: number,
  ) {
    this.#push(root, budget, ROOT);
  }

  /** The cuts, outer ones first (those a smaller page or fewer fields undo), each depth in the response's order. */
  sortedCuts(): Cut[] {
    const found: Array<{ cut: Cut; depth: number }> = [];
    this.#cuts.forEach((cut, i) => {
      if (cut !== undefined) found.push({ cut, depth: this.#depths[i]! });
    });
    return found.sort((a, b) => a.depth - b.depth).map(({ cut }) => cut);
  }

  /** Adds a cut (or a place for one) at `path`; returns its index. */
  #cut(cut: Cut | undefined, path: PathNode): number {
    this.#depths.push(path.depth);
    return this.#cuts.push(cut) - 1;
  }

  step(): boolean {
    const stack = this.#stack;
    for (let work = 0; work < STEP_WORK; work++) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) return true;
      const { members } = frame;
      const count = members === undefined ? (frame.node as unknown[]).length : members.keys.length;
      if (frame.done || frame.at === count) this.#finish(frame, count);
      else if (members === undefined) this.#item(frame);
      else this.#member(frame, members.keys);
    }
    return stack.length === 0;
  }

  #push(node: Container, room: number, path: PathNode): void {
    const members = Array.isArray(node) ? undefined : this.sizes.members(node);
    const frame: BuildFrame = {
      node,
      members,
      room,
      path,
      cutAt: this.#cut(undefined, path),
      used: 2,
      at: 0,
      kept: 0,
      done: false,
      out: [],
      shares: undefined,
      carry: 0,
      memberRoom: 0,
      memberKey: '',
      memberKeySize: 0,
      written: undefined,
    };
    if (members !== undefined) frame.carry = this.#share(frame, members, path === ROOT);
    this.#stack.push(frame);
  }

  /** The next item of a list: whole if it fits; cut into what is left if that is enough; else the list ends. */
  #item(frame: BuildFrame): void {
    const item = (frame.node as unknown[])[frame.at]!;
    const comma = frame.kept > 0 ? 1 : 0;
    const left = frame.room - frame.used - comma;
    const size = this.sizes.of(item);
    if (size <= left) {
      frame.out.push(item);
      frame.used += comma + size;
      frame.kept++;
      frame.at++;
      return;
    }
    const enough = frame.kept === 0 || left >= Math.min(MIN_PARTIAL_ITEM, Math.floor(frame.room / 10));
    if (!enough || leastLength(item, size) > left) {
      frame.done = true;
      return;
    }
    const path = step(frame.path, frame.at);
    frame.used += comma;
    frame.kept++;
    frame.at++;
    if (typeof item === 'string') {
      const cut = this.#cutString(item, left, path);
      frame.out.push(cut.text);
      frame.used += cut.size;
    } else this.#push(item as Container, left, path);
  }

  /** The next member of an object: left out, whole, or cut to its share (and what earlier ones left). */
  #member(frame: BuildFrame, keys: string[]): void {
    const index = frame.at++;
    const share = frame.shares![index]!;
    if (share < 0) return;
    const room = share + frame.carry;
    frame.carry = 0;
    const key = keys[index]!;
    const value = (frame.node as Record<string, unknown>)[key];
    const keySize = stringLength(key);
    const size = this.sizes.of(value);
    const comma = frame.kept > 0 ? 1 : 0;
    if (keySize + 1 + size <= room) {
      frame.out.push([key, value]);
      frame.used += comma + keySize + 1 + size;
      frame.carry = room - keySize - 1 - size;
      frame.kept++;
      return;
    }
    const least = leastLength(value, size);
    let written = key;
    let writtenSize = keySize;
    let valueRoom = room - keySize - 1;
    if (valueRoom < least) {
      // Only a long key can leave too little for its value (shares hold the rest): it is cut, the value
      // keeping up to half the room.
      if (key.length < MIN_CUT_STRING) {
        frame.carry = room;
        return;
      }
      const half = Math.min(Math.floor((room - 1) / 2), room - 1 - CUT_KEY_CHARS);
      valueRoom = Math.min(size, Math.max(least, half));
      const kept = keptOf(key, room - 1 - valueRoom);
      written = key.slice(0, kept.kept) + CUT_MARKER;
      frame.written ??= new Set(keys);
      if (kept.kept === 0 || frame.written.has(written)) {
        frame.carry = room;
        return;
      }
      frame.written.add(written);
      writtenSize = kept.size;
      valueRoom = room - 1 - writtenSize;
      this.#cut({ path: render(frame.path), kind: 'key', kept: kept.kept, total: key.length }, frame.path);
    }
    frame.used += comma;
    frame.kept++;
    const path = step(frame.path, written);
    if (typeof value === 'object' && value !== null) {
      frame.memberRoom = room;
      frame.memberKey = written;
      frame.memberKeySize = writtenSize;
      this.#push(value as Container, valueRoom, path);
      return;
    }
    let member: unknown = value;
    let memberSize = size;
    if (size > valueRoom) {
      // A long string (anything else fits in its least length).
      const cut = this.#cutString(value as string, valueRoom, path);
      member = cut.text;
      memberSize = cut.size;
    }
    frame.out.push([written, member]);
    frame.used += writtenSize + 1 + memberSize;
    frame.carry = room - writtenSize - 1 - memberSize;
  }

  /** A frame whose members are all built or left out: its value goes to its parent, its cut to the list. */
  #finish(frame: BuildFrame, members: number): void {
    this.#stack.pop();
    let value: Container;
    if (frame.members === undefined) value = frame.out;
    else {
      const object: Record<string, unknown> = {};
      for (const [key, member] of frame.out as Array<[string, unknown]>) {
        // As JSON.parse makes it: a "__proto__" key is an ordinary property, not the prototype.
        if (key === '__proto__') {
          Object.defineProperty(object, key, {
            value: member,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else object[key] = member;
      }
      value = object;
    }
    if (frame.kept < members) {
      this.#cuts[frame.cutAt] = {
        path: render(frame.path),
        kind: frame.members === undefined ? 'list' : 'object',
        kept: frame.kept,
        total: members,
        ...(frame.kept === 0 ? { depth: frame.path.depth + 1 } : {}),
      };
    }
    const parent = this.#stack[this.#stack.length - 1];
    if (parent === undefined) {
      this.value = value as Record<string, unknown>;
      return;
    }
    if (parent.members === undefined) {
      parent.out.push(value);
      parent.used += frame.used;
    } else {
      parent.out.push([parent.memberKey, value]);
      const used = parent.memberKeySize + 1 + frame.used;
      parent.used += used;
      parent.carry = parent.memberRoom - used;
    }
  }

  /**
   * Each member's share of an object's room: a member that fits is kept whole, a larger one gets at least a
   * useful share (MIN_SHARE, or its least length), members are kept in order while those shares fit, and
   * the room over is shared out fairly (the largest are cut most). In the response itself, `data` and
   * `errors` are always kept and `errors` gets all the room the others can give up. Returns the room left.
   */
  #share(frame: BuildFrame, { keys, whole, least }: Members, root: boolean): number {
    const n = keys.length;
    const lows = new Float64Array(n);
    const avail = frame.room - 2;
    const floor = root ? 0 : Math.min(MIN_SHARE, Math.floor(avail / 4));
    const required = (key: string) => root && (key === 'data' || key === 'errors');
    let errors = -1;
    let reserved = 0;
    let requiredCount = 0;
    for (let i = 0; i < n; i++) {
      lows[i] = Math.min(whole[i]!, Math.max(least[i]!, floor));
      if (required(keys[i]!)) {
        requiredCount++;
        if (keys[i] === 'errors') errors = i;
        else reserved += lows[i]!;
      }
    }
    if (errors >= 0) {
      // Cut last: all the room but the least of the other required members.
      const room = avail - reserved - (requiredCount - 1);
      lows[errors] = Math.min(whole[errors]!, Math.max(lows[errors]!, room));
    }
    const shares = new Int32Array(n).fill(-1);
    let used = 0;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      if (!required(keys[i]!)) continue;
      used += lows[i]! + (kept > 0 ? 1 : 0);
      shares[i] = lows[i]!;
      kept++;
    }
    for (let i = 0; i < n; i++) {
      if (required(keys[i]!)) continue;
      const cost = lows[i]! + (kept > 0 ? 1 : 0);
      if (used + cost > avail) continue;
      used += cost;
      shares[i] = lows[i]!;
      kept++;
    }
    frame.shares = shares;
    // Under a budget too small for the required members' least, they take it all the same.
    return Math.max(fillUp(shares, whole, avail - used), 0);
  }

  #cutString(text: string, room: number, path: PathNode): { text: string; size: number } {
    const { kept, size } = keptOf(text, room);
    this.#cut({ path: render(path), kind: 'string', kept, total: text.length }, path);
    return { text: text.slice(0, kept) + CUT_MARKER, size };
  }
}

/**
 * Raises the kept members' shares toward their whole lengths (`highs`) by `extra` characters in all,
 * fairly: each up to one common cap, so that the smaller ones are whole and the largest cut most. Returns
 * what is left over.
 */
function fillUp(shares: Int32Array, highs: Float64Array, extra: number): number {
  // The total raise as a function of the cap grows by one per member whose share is below the cap and whose
  // whole length is above it: walked through the points where that count changes.
  const points: Array<[number, number]> = [];
  let wanted = 0;
  for (let i = 0; i < shares.length; i++) {
    const low = shares[i]!;
    const high = highs[i]!;
    if (low < 0 || high <= low) continue;
    points.push([low, 1], [high, -1]);
    wanted += high - low;
  }
  if (points.length === 0 || extra <= 0) return extra;
  let cap = Infinity;
  if (wanted > extra) {
    points.sort((a, b) => a[0] - b[0]);
    let raised = 0;
    let slope = 0;
    let at = points[0]![0];
    for (const [point, change] of points) {
      const next = raised + slope * (point - at);
      if (next >= extra) {
        cap = Math.floor(at + (extra - raised) / slope);
        break;
      }
      raised = next;
      at = point;
      slope += change;
    }
  }
  let left = extra;
  for (let i = 0; i < shares.length; i++) {
    const low = shares[i]!;
    const high = highs[i]!;
    if (low < 0 || high <= low) continue;
    const share = Math.min(high, Math.max(low, cap));
    left -= share - low;
    shares[i] = share;
  }
  return left;
}

/** Where a part is in the response, kept so that any path is written in bounded time and length. */
interface PathNode {
  readonly parent: PathNode | undefined;
  /** `data`, `.books`, `[3]`: this step, its key abridged. */
  readonly segment: string;
  /** Steps from the response: `data` is 1. */
  readonly depth: number;
  /** The first HEAD_STEPS segments. */
  readonly head: string;
}

const ROOT: PathNode = { parent: undefined, segment: '', depth: 0, head: '' };
/** Steps written at the start and at the end of a long path; the ones between are counted. */
const HEAD_STEPS = 6;
const TAIL_STEPS = 6;
/** Keys longer than this are abridged in a path. */
const PATH_KEY_CHARS = 40;

function step(parent: PathNode, key: string | number): PathNode {
  let segment: string;
  if (typeof key === 'number') segment = `[${key}]`;
  else {
    const name = key.length > PATH_KEY_CHARS ? `${key.slice(0, PATH_KEY_CHARS)}…` : key;
    segment = parent.depth === 0 ? name : `.${name}`;
  }
  const depth = parent.depth + 1;
  return { parent, segment, depth, head: depth <= HEAD_STEPS ? parent.head + segment : parent.head };
}

/** `data.books[3].title`; a long path as its first and last steps with a count of those between. */
function render(path: PathNode): string {
  if (path.depth === 0) return 'the response';
  const tail: string[] = [];
  let at = path;
  while (at.depth > HEAD_STEPS && tail.length < TAIL_STEPS) {
    tail.push(at.segment);
    at = at.parent!;
  }
  tail.reverse();
  if (at.depth <= HEAD_STEPS) return at.head + tail.join('');
  const between = at.depth - HEAD_STEPS;
  return `${path.head}…(${between} level${between === 1 ? '' : 's'})…${tail.join('')}`;
}

/** Most cuts listed by name in the note; the rest are counted. */
const MAX_CUTS_LISTED = 12;

/**
 * What was cut and how to get the rest: smaller pages, fewer fields, or the next page through the
 * pagination fields present in the response.
 */
export function shapeNote(
  shaped: ShapedResponse,
  budget = shaped.maxChars,
  optionName = '--maxResultChars',
  maxNoteChars = Infinity,
): string {
  const advice = adviceOf(shaped);
  const head =
    `The response was shortened to fit ${thousands(shaped.maxChars)} characters (${optionName}${dense(shaped, budget)}); it had ${thousands(shaped.originalChars)} characters. ` +
    'Cut: ';
  const tail = `. To get the rest: ${advice.join('; ')}.`;
  // As many cuts by name as the note has room for, outer ones first; the rest are counted by kind.
  const room = maxNoteChars - head.length - tail.length;
  const listed: string[] = [];
  let used = 0;
  for (const [i, cut] of shaped.cuts.slice(0, MAX_CUTS_LISTED).entries()) {
    const described = describeCut(cut);
    const rest = shaped.cuts.slice(i + 1);
    const more = rest.length > 0 ? `; and ${thousands(rest.length)} more cuts (${kindsOf(rest)})`.length : 0;
    if (i > 0 && used + described.length + 2 + more > room) break;
    listed.push(described);
    used += described.length + 2;
  }
  const rest = shaped.cuts.slice(listed.length);
  if (rest.length > 0) listed.push(`and ${thousands(rest.length)} more cuts (${kindsOf(rest)})`);
  return `${head}${listed.join('; ')}${tail}`;
}

/** How to get what was cut: smaller pages, fewer or less deeply nested fields, the next page. */
function adviceOf(shaped: ShapedResponse): string[] {
  const advice: string[] = [];
  // A page size is asked for on a field of the data, not on the errors.
  const list = shaped.cuts.find((cut) => cut.kind === 'list' && cut.kept > 0 && cut.path.startsWith('data'));
  if (list !== undefined) {
    advice.push(
      `ask for fewer items (e.g. first: ${thousands(list.kept)} or the API's limit argument on ${fieldOf(list.path)})`,
    );
  }
  advice.push('select fewer fields');
  if (shaped.cuts.some((cut) => cut.depth !== undefined)) advice.push('select less deeply nested fields');
  const pages = paginationPaths(shaped.value);
  if (pages.length > 0) {
    advice.push(
      `page through the rest with the cursor fields in the response (${pages.join(', ')}: pass endCursor as after:)`,
    );
  }
  return advice;
}

function describeCut(cut: Cut): string {
  const nesting = cut.depth === undefined ? '' : ` (nesting cut at depth ${thousands(cut.depth)})`;
  const of = `${thousands(cut.kept)} of ${thousands(cut.total)}`;
  switch (cut.kind) {
    case 'list':
      return `${cut.path} kept ${of} items${nesting}`;
    case 'object':
      return `${cut.path} kept ${of} keys${nesting}`;
    case 'string':
      return `${cut.path} kept ${of} characters (ends with "${CUT_MARKER}")`;
    case 'key':
      return `${cut.path} has a key that kept ${of} characters (ends with "${CUT_MARKER}")`;
  }
}

/** `3 lists, 2 strings; nesting cut at depth 9`: what the cuts not listed were, and the shallowest emptied. */
function kindsOf(cuts: readonly Cut[]): string {
  const names = { list: 'lists', object: 'objects', string: 'strings', key: 'keys' } as const;
  const counts = new Map<Cut['kind'], number>();
  let depth = Infinity;
  for (const cut of cuts) {
    counts.set(cut.kind, (counts.get(cut.kind) ?? 0) + 1);
    depth = Math.min(depth, cut.depth ?? Infinity);
  }
  const kinds = [...counts].map(([kind, n]) => `${thousands(n)} ${names[kind]}`).join(', ');
  return depth === Infinity ? kinds : `${kinds}; nesting cut at depth ${thousands(depth)}`;
}

/** Why the budget is below the option's: the text is denser in tokens than the option allows for. */
function dense(shaped: ShapedResponse, budget: number): string {
  if (shaped.maxChars >= budget) return '';
  const tokens = thousands(budget * TOKENS_PER_BUDGET_CHAR);
  return ` is ${thousands(budget)}, and about ${tokens} tokens: fewer characters for text this dense`;
}

/** The field name a response path ends with (`data.a.books[2].reviews` → `reviews`). */
function fieldOf(path: string): string {
  const last =
    path
      .replace(/\[\d+\]$/, '')
      .split('.')
      .pop() ?? path;
  return last.replace(/\[\d+\]/g, '');
}

/** Paths of the first few `pageInfo` objects (Relay connections) in the data, nearest the top first. */
function paginationPaths(root: Record<string, unknown>): string[] {
  const found: string[] = [];
  const queue: Array<{ node: unknown; path: PathNode }> = [{ node: root.data, path: step(ROOT, 'data') }];
  for (let i = 0; i < queue.length && found.length < 3 && i < 10_000; i++) {
    const { node, path } = queue[i]!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      node.slice(0, 3).forEach((item, j) => queue.push({ node: item, path: step(path, j) }));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'pageInfo' && typeof child === 'object' && child !== null)
        found.push(render(step(path, key)));
      else queue.push({ node: child, path: step(path, key) });
    }
  }
  return found;
}
