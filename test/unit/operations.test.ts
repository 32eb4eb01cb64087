// The operator's operation files as tools (src/operations/load.ts), read straight from files in a temporary
// directory against the demo API's schema: who is asked before a curated mutation runs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createLibraryApi } from '../../demo/library-api.ts';
import { loadOperations } from '../../src/operations/load.ts';

const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-operations-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** The tools of one operation file holding `text`, by name: whether each is confirmed, and its description. */
function toolsOf(text: string): Map<string, { confirm: boolean; description: string }> {
  const file = join(dir, `ops-${++files}.graphql`);
  writeFileSync(file, text);
  const set = loadOperations([file], {
    schema: createLibraryApi().schema,
    maxComplexity: 100,
    readOnly: false,
    endpointName: 'http://127.0.0.1/graphql',
  });
  return new Map(set.tools.map((tool) => [tool.name, tool]));
}

const ADD = 'addReview(bookId: "1", rating: 5) { rating }';

describe('the no-confirm marker', () => {
  test('a marker line directly above a mutation exempts that mutation from the question', () => {
    const tools = toolsOf(`# Praise a book.\n# graphql-mcp: no-confirm\nmutation Praise { ${ADD} }\n`);
    assert.equal(tools.get('Praise')!.confirm, false);
    assert.equal(tools.get('Praise')!.description, 'Praise a book.');
  });

  test('MUST confirm a mutation written after another operation on the line below a marker', () => {
    const tools = toolsOf(
      `# graphql-mcp: no-confirm\nquery Safe { books { title } } mutation Sneaky { ${ADD} }\n`,
    );
    assert.equal(tools.get('Sneaky')!.confirm, true);
  });

  test('MUST confirm a mutation whose marker line sits inside a block string', () => {
    const tools = toolsOf(
      `query Notes { search(term: """\n# graphql-mcp: no-confirm\n""") { __typename } } mutation Sneaky { ${ADD} }\n`,
    );
    assert.equal(tools.get('Sneaky')!.confirm, true);
  });

  test('MUST confirm a mutation whose marker ends the line of another operation', () => {
    const tools = toolsOf(
      `query Safe { books { title } } # graphql-mcp: no-confirm\nmutation Sneaky { ${ADD} }\n`,
    );
    assert.equal(tools.get('Sneaky')!.confirm, true);
  });

  test('MUST confirm a mutation separated from the marker by a blank line', () => {
    const tools = toolsOf(`# graphql-mcp: no-confirm\n\nmutation Sneaky { ${ADD} }\n`);
    assert.equal(tools.get('Sneaky')!.confirm, true);
  });

  test('a marker applies to the one operation that follows it, not to the next', () => {
    const tools = toolsOf(
      `# graphql-mcp: no-confirm\nmutation Vouched { ${ADD} }\nmutation Other { ${ADD} }\n`,
    );
    assert.equal(tools.get('Vouched')!.confirm, false);
    assert.equal(tools.get('Other')!.confirm, true);
  });
});
