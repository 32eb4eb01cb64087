// The README is for the people who install the server: short enough to read in five minutes, with the details
// in docs/, and every link from one to the other resolving.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { docFiles, optionsDocs } from '../../scripts/options-docs.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_README_BYTES = 15_000;

const CODE_BLOCK = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;

/** The text outside fenced code blocks and code spans, where links are what they seem. */
function prose(markdown: string): string {
  return markdown.replace(CODE_BLOCK, '').replace(/`[^`\n]*`/g, '');
}

/**
 * The anchors GitHub gives a file's headings: the text in lower case, punctuation dropped, each space a hyphen,
 * and `-1`, `-2`, … after a repeated one.
 */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of markdown.replace(CODE_BLOCK, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** The relative link targets of a markdown file: `docs/remote.md`, `#options`, `results.md#large-schemas`. */
function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map(([, target]) => target!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('the README', () => {
  test(`README.md is at most ${MAX_README_BYTES.toLocaleString('en-US')} bytes (the details go in docs/)`, () => {
    const bytes = statSync(join(root, 'README.md')).size;
    assert.ok(
      bytes <= MAX_README_BYTES,
      `README.md has ${bytes.toLocaleString('en-US')} bytes, over ${MAX_README_BYTES.toLocaleString('en-US')}: move details to docs/`,
    );
  });

  test('README.md holds the generated table of the general options', () => {
    const readme = optionsDocs().find((doc) => doc.path === 'README.md');
    assert.ok(readme !== undefined, 'README.md holds no options table');
    assert.match(readme.text, /<!-- options:start general\b[^>]*-->\n\n\| Option +\| Short/);
  });
});

describe('links between the docs', () => {
  for (const path of docFiles()) {
    test(`every relative link of ${path} names a file that exists, and a heading of it`, () => {
      const broken: string[] = [];
      for (const target of relativeLinks(readFileSync(join(root, path), 'utf8'))) {
        const [file = '', anchor] = target.split('#', 2);
        const resolved = file === '' ? join(root, path) : normalize(join(root, dirname(path), file));
        if (!existsSync(resolved)) broken.push(`${target}: no such file`);
        else if (anchor !== undefined && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${target}: no such heading`);
        }
      }
      assert.deepEqual(broken, [], `broken links in ${path}`);
    });
  }
});
