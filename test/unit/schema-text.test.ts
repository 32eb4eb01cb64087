import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { editDistance, suggestNames } from '../../src/graphql/name-suggestions.ts';
import { firstSentence } from '../../src/schema/sdl-lines.ts';
import { clampText, CUT_LINE as CUT_MARKER, listWithin } from '../../src/schema/answers/text-budget.ts';

describe('firstSentence', () => {
  test('keeps the first sentence of several', () => {
    assert.equal(firstSentence('Look up a repository. Returns null when absent.'), 'Look up a repository.');
  });

  test('keeps a description without a full stop whole', () => {
    assert.equal(
      firstSentence('Look up a code of conduct by its key'),
      'Look up a code of conduct by its key',
    );
  });

  test('does not end a sentence at an abbreviation followed by a small letter', () => {
    assert.equal(
      firstSentence('Lookup a repository owner (ie. either a User or an Organization) by login.'),
      'Lookup a repository owner (ie. either a User or an Organization) by login.',
    );
  });

  test('ends at the first paragraph and puts the lines on one', () => {
    assert.equal(
      firstSentence('A git ref\nfor a commit\n\nThe ref must be a branch.'),
      'A git ref for a commit',
    );
  });

  test('cuts a very long sentence at a word, with an ellipsis', () => {
    const sentence = firstSentence(`${'word '.repeat(100)}end.`);
    assert.ok(sentence.length <= 160);
    assert.ok(sentence.endsWith('…'));
  });

  test('gives an empty string for no description', () => {
    assert.equal(firstSentence(null), '');
    assert.equal(firstSentence(undefined), '');
  });
});

describe('listWithin', () => {
  test('gives the whole list when it fits', () => {
    assert.deepEqual(listWithin(['a', 'b', 'c'], 100), { text: 'a, b, c', shown: 3 });
  });

  test('cuts a list with "… N more" and stays within the limit', () => {
    const items = Array.from({ length: 50 }, (_, i) => `Type${i}`);
    for (let max = 10; max < 300; max += 7) {
      const { text, shown } = listWithin(items, max);
      assert.ok(text.length <= max, `${text.length} > ${max}`);
      assert.ok(text.endsWith(`… ${50 - shown} more`));
    }
  });
});

describe('clampText', () => {
  test('leaves a text within the limit as it is', () => {
    assert.equal(clampText('short', 10), 'short');
  });

  test('cuts at a line end and says so', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const clamped = clampText(text, 300);
    assert.ok(clamped.length <= 300);
    assert.ok(clamped.endsWith(CUT_MARKER));
    assert.match(clamped, /line \d+\n#/);
  });
});

describe('suggestNames', () => {
  const names = [
    'Repository',
    'RepositoryOwner',
    'PullRequest',
    'PullRequestReview',
    'Issue',
    'IssueState',
    'User',
  ];

  test('suggests the name that differs only in case first', () => {
    assert.equal(suggestNames('pullrequest', names)[0], 'PullRequest');
  });

  test('suggests a name a few edits away', () => {
    assert.deepEqual(suggestNames('Reposiotry', names).slice(0, 1), ['Repository']);
    assert.equal(suggestNames('IssueStat', names)[0], 'IssueState');
  });

  test('suggests names that hold the given part, shortest first', () => {
    assert.deepEqual(suggestNames('Repo', names), ['Repository', 'RepositoryOwner']);
  });

  test('suggests nothing for a name unlike any', () => {
    assert.deepEqual(suggestNames('Zebra', names), []);
  });
});

describe('editDistance', () => {
  test('counts insertions, deletions, substitutions and swaps', () => {
    assert.equal(editDistance('issue', 'issue'), 0);
    assert.equal(editDistance('issue', 'issues'), 1);
    assert.equal(editDistance('issue', 'isue'), 1);
    assert.equal(editDistance('issue', 'issua'), 1);
    assert.equal(editDistance('issue', 'isuse'), 1);
  });

  test('stops early past the limit', () => {
    assert.equal(editDistance('repository', 'organization', 2), 3);
  });
});
