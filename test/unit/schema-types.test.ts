import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSchema, introspectionFromSchema, printType } from 'graphql';
import { ToolError } from '../../src/common/errors.ts';
import { renderTypes, resolveTypeNames } from '../../src/schema/answers/types.ts';
import { IntrospectedSchema, type SchemaView } from '../../src/schema/view.ts';

// A type with many long described fields and arguments, to be shortened.
const BIG_FIELDS = Array.from(
  { length: 40 },
  (_, i) => `
    "Field number ${i} of the big type. It has a second sentence that is cut first."
    field${i}(
      "The first argument of field ${i}, described at length to take room."
      first: Int
      "The second argument of field ${i}, described at length to take room."
      after: String
    ): String`,
).join('\n');

const SDL = /* GraphQL */ `
  "A repository."
  type Repository {
    "The name."
    name: String!
    "Issues of the repository."
    issues(first: Int): [Issue!]!
    oldName: String @deprecated(reason: "Use name.")
  }
  type Issue {
    title: String!
  }
  enum IssueState {
    OPEN
    CLOSED
    MERGED @deprecated(reason: "Issues are not merged.")
  }
  input IssueFilter {
    state: IssueState
  }
  union Item = Repository | Issue
  scalar DateTime
  "A type too large for small budgets."
  type Big {
    ${BIG_FIELDS}
  }
  type Query {
    repository: Repository
    item: Item
    big: Big
    issues(filter: IssueFilter, since: DateTime): [Issue!]!
  }
`;

const introspection = introspectionFromSchema(buildSchema(SDL));

async function setup(includeDeprecated = false): Promise<{ schema: IntrospectedSchema; view: SchemaView }> {
  const schema = new IntrospectedSchema(introspection);
  return { schema, view: await schema.view(includeDeprecated) };
}

async function render(names: string[], maxChars = 100_000, includeDeprecated = false): Promise<string> {
  const { schema, view } = await setup(includeDeprecated);
  const requested = resolveTypeNames(view, names, (type, member) => schema.isDeprecated(type, member));
  return renderTypes(view, requested, maxChars);
}

async function invalid(names: string[]): Promise<string> {
  const { schema, view } = await setup();
  try {
    resolveTypeNames(view, names, (type, member) => schema.isDeprecated(type, member));
  } catch (error) {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, 'INVALID_INPUT');
    return error.message;
  }
  assert.fail('no INVALID_INPUT');
}

describe('typeNames', () => {
  test('gives the full SDL of exactly the types asked, as printSchema prints them, in the order asked', async () => {
    const { view } = await setup();
    const text = await render(['Issue', 'Repository']);
    const issue = printType(view.schema.getType('Issue')!);
    const repository = printType(view.schema.getType('Repository')!);
    assert.ok(text.indexOf(issue) !== -1 && text.indexOf(issue) < text.indexOf(repository));
    assert.doesNotMatch(text, /type Query/);
  });

  test('heads each definition with one path from a root field', async () => {
    assert.match(await render(['Issue']), /^# Issue — path: Query\.issues\ntype Issue \{/);
    assert.match(await render(['Query']), /^# Query — a root type\n/);
  });

  test('gives a type asked twice once', async () => {
    const text = await render(['Issue', 'Issue']);
    assert.equal(text.split('type Issue {').length, 2);
  });

  test('gives every kind of type', async () => {
    const text = await render(['IssueState', 'IssueFilter', 'Item', 'DateTime']);
    for (const line of [
      'enum IssueState {',
      'input IssueFilter {',
      'union Item = Repository | Issue',
      'scalar DateTime',
    ]) {
      assert.ok(text.includes(line), line);
    }
  });

  test('leaves out deprecated fields and enum values unless includeDeprecated', async () => {
    assert.doesNotMatch(await render(['Repository', 'IssueState']), /oldName|MERGED/);
    const text = await render(['Repository', 'IssueState'], 100_000, true);
    assert.match(text, /oldName: String @deprecated\(reason: "Use name\."\)/);
    assert.match(text, /MERGED @deprecated/);
  });

  test('gives one member in full for "Type.member"', async () => {
    const text = await render(['Repository.issues', 'IssueState.OPEN']);
    assert.match(
      text,
      /# Repository\.issues — path: Query\.repository → Repository\.issues\n# Cost: list: slice with first \(none given: counted as 100\)\ntype Repository \{\n {2}"""Issues of the repository\."""\n {2}issues\(first: Int\): \[Issue!\]!\n\}/,
    );
    assert.match(text, /enum IssueState \{\n {2}OPEN\n\}/);
  });
});

describe('typeNames that do not exist', () => {
  test('give INVALID_INPUT with the closest names', async () => {
    assert.match(await invalid(['Repo']), /no type "Repo" \(did you mean Repository\?\)/);
  });

  test('suggest the name that differs only in case', async () => {
    assert.match(await invalid(['issuestate']), /did you mean IssueState/);
  });

  test('name every unknown entry in one message', async () => {
    const message = await invalid(['Repo', 'Issue', 'Isue']);
    assert.match(message, /"Repo"/);
    assert.match(message, /"Isue" \(did you mean Issue/);
  });

  test('suggest members for an unknown member', async () => {
    assert.match(
      await invalid(['Repository.isues']),
      /Repository has no member "isues" \(did you mean issues\?\)/,
    );
  });

  test('say that a deprecated member needs includeDeprecated', async () => {
    assert.match(
      await invalid(['Repository.oldName']),
      /Repository\.oldName is deprecated: set includeDeprecated to true/,
    );
  });

  test('say that a union has no members', async () => {
    assert.match(await invalid(['Item.x']), /Item is a union, which has no members/);
  });
});

describe('typeNames within the budget', () => {
  test('gives the definitions that fit and names the others to ask for again', async () => {
    const big = await render(['Big']);
    const whole = await render(['Big', 'Repository', 'Issue']);
    let noted = 0;
    for (let max = big.length + 150; max < whole.length; max += 25) {
      const text = await render(['Big', 'Repository', 'Issue'], max);
      assert.ok(text.length <= max);
      if (!text.includes('type Big {')) continue;
      assert.match(
        text,
        /^# [12] of 3 shown, to fit the [\d,]+-character limit \(--maxSchemaChars\)\. Ask for the others in another call: typeNames: \["Repository"/,
      );
      noted++;
    }
    assert.ok(noted > 0, 'some budget shows Big whole and names the others');
  });

  test('shortens a type larger than the budget: argument descriptions go first', async () => {
    const whole = await render(['Big']);
    const text = await render(['Big'], whole.length - 100);
    assert.match(text, /^# Big is shortened to fit .*: argument descriptions left out\./);
    assert.match(text, /field0\(first: Int, after: String\): String/);
    assert.match(text, /It has a second sentence/);
  });

  test('then cuts descriptions to their first sentence, then leaves them out, then cuts members', async () => {
    const seen: string[] = [];
    for (let max = 10_000; max >= 600; max -= 200) {
      const text = await render(['Big'], max);
      assert.ok(text.length <= max, `${text.length} > ${max}`);
      const step = /shortened to fit [^:]*: ([^.(]*)/
        .exec(text)?.[1]
        ?.trim()
        .replace(/, \d+ of \d+ members not shown/, ', members not shown');
      if (step !== undefined && seen.at(-1) !== step) seen.push(step);
    }
    assert.deepEqual(seen, [
      'argument descriptions left out',
      'argument descriptions left out, the others cut to their first sentence',
      'descriptions left out',
      'descriptions left out, members not shown',
    ]);
  });

  test('MUST NOT exceed the budget, whatever is asked', async () => {
    const names = [
      'Big',
      'Repository',
      'Issue',
      'IssueState',
      'IssueFilter',
      'Item',
      'Query',
      'Repository.issues',
    ];
    for (let max = 300; max <= 8_000; max += 97) {
      const text = await render(names, max);
      assert.ok(text.length <= max, `${text.length} > ${max}`);
    }
  });
});
