// An API as served (src/api/api.ts): the names its operation tools get, and the check that no two sources
// make one tool name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiConfig } from '../../src/config/types.ts';
import { Live } from '../../src/common/live.ts';
import type { OperationSet, OperationTool } from '../../src/operations/load.ts';
import { operationTools, toolNameClash, type Api } from '../../src/api/api.ts';

function api(name: string, operations: readonly string[]): Api {
  const set: OperationSet = {
    tools: operations.map((operation) => ({ name: operation, where: `${name}.graphql:1` }) as OperationTool),
    skipped: [],
    variablesOf: () => ({}),
  };
  return { config: { name } as ApiConfig, operations: new Live(set, false) };
}

describe('operation tool names', () => {
  test('are the operation names for one API, and prefixed with the API name for several', () => {
    assert.deepEqual(
      operationTools([api('github', ['GetIssue'])]).map(([name]) => name),
      ['GetIssue'],
    );
    assert.deepEqual(
      operationTools([api('github', ['GetIssue']), api('gitlab', ['GetIssue'])]).map(([name]) => name),
      ['github_GetIssue', 'gitlab_GetIssue'],
    );
  });
});

describe('toolNameClash', () => {
  test('finds two APIs whose prefixed names meet, naming both sources', () => {
    const clash = toolNameClash([api('x', ['y_z']), api('x_y', ['z'])], ['graphql_query']);
    assert.equal(
      clash,
      'the operation y_z of the API x (x.graphql:1) and the operation z of the API x_y (x_y.graphql:1) would both be the tool x_y_z',
    );
  });

  test('finds an operation that would take a built-in tool name', () => {
    assert.match(
      toolNameClash([api('graphql', ['query']), api('b', [])], ['graphql_query'])!,
      /^the built-in tool graphql_query and/,
    );
  });

  test('checks the sets a reload would serve, not the ones served', () => {
    const apis = [api('x', ['a']), api('x_y', ['b'])];
    assert.equal(toolNameClash(apis, []), undefined);
    const reloaded = {
      tools: [{ name: 'y_b', where: 'x.graphql:3' } as OperationTool],
      skipped: [],
      variablesOf: () => ({}),
    };
    assert.match(
      toolNameClash(apis, [], (each) => (each === apis[0] ? reloaded : each.operations?.current))!,
      /would both be the tool x_y_b/,
    );
  });
});
