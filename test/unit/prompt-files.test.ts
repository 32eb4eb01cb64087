import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsePromptFile, PromptsError } from '../../src/prompts/prompt-files.ts';

const parse = (text: string) => parsePromptFile('prompts/p.md', text);
const listed = (text: string) => {
  const { render: _, ...rest } = parse(text);
  return rest;
};

describe('a prompt file without front matter', () => {
  test('is named after its file and takes each placeholder as a required argument, once', () => {
    assert.deepEqual(listed('Compare {{a}} with {{ b }}, then {{a}} again.'), {
      name: 'p',
      arguments: [
        { name: 'a', required: true },
        { name: 'b', required: true },
      ],
    });
  });

  test('takes a first "# heading" as its description and leaves it out of the text', () => {
    const prompt = parse('\n# Compare two things #\n\nCompare {{a}}.');
    assert.equal(prompt.description, 'Compare two things');
    assert.equal(prompt.render({ a: 'x' }), 'Compare x.');
  });

  test('keeps a heading that is not the first line in the text', () => {
    const prompt = parse('Intro.\n# Section\nMore.');
    assert.equal(prompt.description, undefined);
    assert.equal(prompt.render({}), 'Intro.\n# Section\nMore.');
  });

  test('reads Windows line ends and a byte order mark', () => {
    const prompt = parse('\uFEFF# Title\r\nLine one\r\nLine two\r\n');
    assert.equal(prompt.description, 'Title');
    assert.equal(prompt.render({}), 'Line one\nLine two');
  });

  test('leaves text that looks like a placeholder but names no argument as it is', () => {
    assert.equal(parse('Use {{ 1st }} and {{}} and {x}.').render({}), 'Use {{ 1st }} and {{}} and {x}.');
  });
});

describe('front matter', () => {
  test('gives the name, title, description and arguments', () => {
    const text = [
      '---',
      '# a comment line',
      'name: orders',
      'title: "Orders \\u2014 recent"',
      "description: 'The customer''s orders' # a comment",
      'arguments:',
      '- name: email',
      '  description: The email, e.g. a#b.c',
      '  required: TRUE',
      '- name: limit',
      '---',
      '{{email}} {{limit}}',
    ].join('\n');
    assert.deepEqual(listed(text), {
      name: 'orders',
      title: 'Orders — recent',
      description: "The customer's orders",
      arguments: [
        { name: 'email', description: 'The email, e.g. a#b.c', required: true },
        { name: 'limit', required: false },
      ],
    });
  });

  test('an empty list of arguments (arguments: []) allows no placeholder', () => {
    assert.deepEqual(listed('---\narguments: []\n---\nNo arguments.').arguments, []);
    assert.throws(
      () => parse('---\narguments: []\n---\n{{x}}'),
      /uses \{\{x\}\}, which arguments does not declare/,
    );
  });

  test('without a description, a first heading still gives it', () => {
    assert.equal(parse('---\ntitle: T\n---\n# D\nText').description, 'D');
  });

  const refusals: Array<[string, string, RegExp]> = [
    ['a key given twice', '---\nname: a\nname: b\n---\nx', /p\.md:3: name is given twice/],
    [
      'an unknown argument key',
      '---\narguments:\n  - name: x\n    type: string\n---\n{{x}}',
      /p\.md:4: unknown key type of an argument/,
    ],
    [
      'an argument without a name',
      '---\narguments:\n  - description: d\n---\nx',
      /p\.md:3: an argument needs a name/,
    ],
    [
      'an argument declared twice',
      '---\narguments:\n  - name: x\n  - name: x\n---\n{{x}}',
      /the argument x is declared twice/,
    ],
    [
      'a multi-line value',
      '---\ndescription: |\n  two\n  lines\n---\nx',
      /p\.md:2: description: multi-line values/,
    ],
    [
      'an unterminated quote',
      '---\ntitle: "open\n---\nx',
      /p\.md:2: title: a "quoted" value must end with "/,
    ],
    ['an empty value', '---\ntitle:\n---\nx', /p\.md:2: title needs a value/],
    ['a list item outside arguments', '---\nname: a\n  - name: x\n---\nx', /p\.md:3: expected "key: value"/],
    ['arguments given inline', '---\narguments: x, y\n---\n{{x}}', /p\.md:2: arguments is a list/],
    ['a bad argument name', '---\narguments:\n  - name: 9x\n---\nx', /p\.md:3: the argument name must be/],
  ];
  for (const [name, text, expected] of refusals) {
    test(`refuses ${name}, naming the file and line`, () => {
      assert.throws(
        () => parse(text),
        (error: Error) => {
          assert.ok(error instanceof PromptsError);
          assert.match(error.message, expected);
          return true;
        },
      );
    });
  }
});

describe('rendering', () => {
  test('fills every occurrence of a placeholder, and a missing optional one with nothing', () => {
    const prompt = parse('---\narguments:\n  - name: a\n  - name: b\n---\n{{a}}-{{b}}-{{a}}');
    assert.equal(prompt.render({ a: '1' }), '1--1');
  });

  test('MUST NOT expand placeholders inside values (one pass)', () => {
    assert.equal(parse('{{a}} {{b}}').render({ a: '{{b}}', b: '2' }), '{{b}} 2');
  });
});
