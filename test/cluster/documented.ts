// The proxy configurations of docs/remote.md, as a reader copies them: the cluster harness runs the HAProxy
// block and the proxy tests run the nginx block with only their addresses replaced (listener, replicas, admin
// socket), so that what the docs say is what the tests run.
import { readFileSync } from 'node:fs';

const REMOTE_MD = new URL('../../docs/remote.md', import.meta.url);

/** The one fenced block of `language` (```haproxy, ```nginx) in docs/remote.md; throws unless there is one. */
export function documentedBlock(language: string): string {
  const text = readFileSync(REMOTE_MD, 'utf8');
  const blocks = [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))];
  if (blocks.length !== 1) {
    throw new Error(
      `docs/remote.md has ${blocks.length} \`\`\`${language} blocks; the tests run exactly one`,
    );
  }
  return blocks[0]![1]!;
}

/** A line of a configuration to change: what matches it, and the lines it becomes. */
export interface Substitution {
  /** What the line is, for the error when the block has none (e.g. "a `bind` line"). */
  readonly what: string;
  readonly line: RegExp;
  /**
   * The lines that replace the matching ones: called once, with every matching line's match; consecutive
   * matching lines are replaced as a group (the replicas of a backend).
   */
  readonly replace: (matches: readonly RegExpExecArray[]) => readonly string[];
}

/**
 * The block with each substitution applied; every other line is kept as written. Throws when a substitution
 * finds no line, or finds lines that are not one group, so that a block that lost its listener fails loudly.
 */
export function substitute(block: string, language: string, substitutions: readonly Substitution[]): string {
  let lines = block.split('\n');
  for (const { what, line, replace } of substitutions) {
    const matches = lines.map((text) => line.exec(text));
    const first = matches.findIndex((match) => match !== null);
    const count = matches.filter((match) => match !== null).length;
    if (first < 0) throw new Error(`docs/remote.md's ${language} block has no ${what}`);
    if (matches.slice(first, first + count).some((match) => match === null)) {
      throw new Error(
        `docs/remote.md's ${language} block has its ${what}s apart; the tests expect them together`,
      );
    }
    const replaced = replace(matches.slice(first, first + count) as RegExpExecArray[]);
    lines = [...lines.slice(0, first), ...replaced, ...lines.slice(first + count)];
  }
  return lines.join('\n');
}

/**
 * The replicas' lines of a backend or upstream: one line per port on 127.0.0.1 (named `r<index>` where the
 * documented lines have names), with the settings of the documented lines, which must all have the same, so
 * that none is left out. `match` groups: 1 the line up to the name, 2 the name and its spaces (or nothing),
 * 3 the address, 4 the rest.
 */
export function replicaLines(
  language: string,
  matches: readonly RegExpExecArray[],
  ports: readonly number[],
): string[] {
  const settings = (match: RegExpExecArray) => (match[4] ?? '').replace(/#.*$/, '').trim();
  const first = matches[0]!;
  if (matches.some((match) => settings(match) !== settings(first))) {
    throw new Error(`docs/remote.md's ${language} block gives its replicas different settings`);
  }
  return ports.map(
    (port, index) => `${first[1]}${first[2] ? `r${index} ` : ''}127.0.0.1:${port}${first[4] ?? ''}`,
  );
}
