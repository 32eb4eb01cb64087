// A model asking for a type that does not exist has usually misspelt it, guessed its case, or remembered part
// of it ("Repo", "pullrequest", "IssueStatus"). The answer names the closest existing names, so that the
// next call can be right.

/** The names of `candidates` closest to `input`, best first: same name but for case, a few edits, or a part. */
export function suggestNames(input: string, candidates: Iterable<string>, max = 3): string[] {
  const wanted = input.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    let score: number | undefined;
    if (lower === wanted) score = 0;
    else {
      const distance = editDistance(wanted, lower, limit);
      if (distance <= limit) score = distance;
      else if (wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower))) {
        // A part of the name: the less is missing, the better, after any close misspelling.
        score = limit + 1 + Math.abs(lower.length - wanted.length) / 100;
      }
    }
    if (score !== undefined) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || (a.name < b.name ? -1 : 1));
  return scored.slice(0, max).map(({ name }) => name);
}

/**
 * Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps), or `limit + 1`
 * as soon as it is known to be larger than `limit`, which keeps a scan of thousands of names fast.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, limit + 1);
}
