// Pass two of the shortening (result-shape.ts): the shortened copy of a response, built top-down within a
// budget of characters, each object's members given a fair share of its room and each list its first items,
// with a record of every cut.

import {
  CUT_KEY_CHARS,
  CUT_MARKER,
  keptOf,
  leastLength,
  MIN_CUT_STRING,
  STEP_WORK,
  stringLength,
  type Container,
  type Members,
  type Sizes,
} from './result-shape-measure.js';
import { render, ROOT, step, type PathNode } from './result-shape-path.js';

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

/** The least a cut member of an object is given (or a quarter of the object's room, if less). */
const MIN_SHARE = 1_000;
/** A list item after the first is cut to fit only into this much room (or a tenth of the list's), or more. */
const MIN_PARTIAL_ITEM = 1_000;

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

/** Pass two: the shortened copy, top-down within a budget, without recursion, a slice a step. */
export class Build {
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
