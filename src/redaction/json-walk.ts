// A parsed JSON value's strings and object keys, each passed through a function: iterative, so a value nested
// deeper than the call stack allows is walked all the same, and copy-on-write, so a value in which nothing
// changes is returned as it was and only what changed is copied.

/** `root` with every string and object key replaced by `map`'s answer; the very value when nothing changed. */
export function mapStrings(root: unknown, map: (text: string) => string): unknown {
  if (typeof root === 'string') return map(root);
  if (typeof root !== 'object' || root === null) return root;
  const stack: Frame[] = [frameOf(root)];
  let walked: unknown;
  for (;;) {
    const frame = stack[stack.length - 1]!;
    const { node, keys } = frame;
    if (frame.at === (keys === undefined ? (node as unknown[]).length : keys.length)) {
      stack.pop();
      walked = copyOf(frame);
      if (stack.length === 0) return walked;
      settle(stack[stack.length - 1]!, walked);
      continue;
    }
    let child: unknown;
    if (keys === undefined) child = (node as unknown[])[frame.at];
    else {
      const key = keys[frame.at]!;
      frame.key = map(key);
      child = (node as Record<string, unknown>)[key];
    }
    if (typeof child === 'object' && child !== null) {
      stack.push(frameOf(child));
      continue;
    }
    settle(frame, typeof child === 'string' ? map(child) : child);
  }
}

/** An array or object being walked, and its copy once something in it has changed. */
interface Frame {
  readonly node: object;
  /** The object's own keys; undefined for an array. */
  readonly keys: string[] | undefined;
  /** The index of the item (or key) being walked. */
  at: number;
  /** That item's key, redacted. */
  key: string;
  /** The items walked so far, from the first change on: an array's, or an object's entries. */
  copy: unknown[] | Array<[string, unknown]> | undefined;
}

function frameOf(node: object): Frame {
  return { node, keys: Array.isArray(node) ? undefined : Object.keys(node), at: 0, key: '', copy: undefined };
}

/** Records the walked value of the frame's current item, and moves on to the next. */
function settle(frame: Frame, walked: unknown): void {
  const { node, keys, at } = frame;
  if (keys === undefined) {
    if (walked !== (node as unknown[])[at])
      ((frame.copy as unknown[] | undefined) ??= (node as unknown[]).slice())[at] = walked;
  } else {
    const key = keys[at]!;
    let entries = frame.copy as Array<[string, unknown]> | undefined;
    if (entries === undefined && (frame.key !== key || walked !== (node as Record<string, unknown>)[key])) {
      entries = frame.copy = keys
        .slice(0, at)
        .map((kept): [string, unknown] => [kept, (node as Record<string, unknown>)[kept]]);
    }
    entries?.push([frame.key, walked]);
  }
  frame.at++;
}

/** The walked value of a finished frame: the very node when nothing in it changed. */
function copyOf(frame: Frame): unknown {
  if (frame.copy === undefined) return frame.node;
  if (frame.keys === undefined) return frame.copy;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of frame.copy as Array<[string, unknown]>) {
    // As JSON.parse made it: a "__proto__" key is an ordinary property, not the prototype.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    } else copy[key] = item;
  }
  return copy;
}
