// How long and how deep a value's JSON would be, known without writing it: whether serialising it is long work, and
// whether what walks it recursively can.

/**
 * Whether `value` takes at least `limit` characters as JSON, looking at no more of it than that takes:
 * a cheap test of whether serialising it is long work.
 */
export function jsonLengthAtLeast(value: unknown, limit: number): boolean {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') length += item.length + 2;
    else if (Array.isArray(item)) {
      length += Math.max(item.length + 1, 2); // brackets and commas
      if (length >= limit) return true;
      for (const element of item as unknown[]) pending.push(element);
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      length += Math.max(entries.length * 4 + 1, 2); // braces, and each key's quotes, colon and comma
      if (length >= limit) return true;
      for (const [key, entry] of entries) {
        length += key.length;
        pending.push(entry);
      }
    } else length += 1; // a number, boolean or null: at least one character
    if (length >= limit) return true;
  }
  return false;
}

/**
 * Whether `value` holds objects and arrays more than `levels` deep (the value itself is the first level): what
 * recursive code may not walk without a bound. Recursion stops at `levels`.
 */
export function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const item of Array.isArray(value) ? (value as unknown[]) : Object.values(value)) {
    if (nestsDeeperThan(item, levels - 1)) return true;
  }
  return false;
}
