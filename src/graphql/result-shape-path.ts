// Where a part of a response is, for the cuts and the note: a path written in bounded time and length however
// deep the part lies (`data.books[3].title`; a long one as its first and last steps and a count between).

/** Where a part is in the response, kept so that any path is written in bounded time and length. */
export interface PathNode {
  readonly parent: PathNode | undefined;
  /** `data`, `.books`, `[3]`: this step, its key abridged. */
  readonly segment: string;
  /** Steps from the response: `data` is 1. */
  readonly depth: number;
  /** The first HEAD_STEPS segments. */
  readonly head: string;
}

export const ROOT: PathNode = { parent: undefined, segment: '', depth: 0, head: '' };
/** Steps written at the start and at the end of a long path; the ones between are counted. */
const HEAD_STEPS = 6;
const TAIL_STEPS = 6;
/** Keys longer than this are abridged in a path. */
const PATH_KEY_CHARS = 40;

export function step(parent: PathNode, key: string | number): PathNode {
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
export function render(path: PathNode): string {
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
