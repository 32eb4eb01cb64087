// The resources' URIs (src/resources/uris.ts): one API's, unique across APIs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiUris, resourceName } from '../../src/resources/uris.ts';

test("an API's resources live under graphql://<api>/, and their names drop only the scheme", () => {
  const uris = apiUris('github');
  assert.equal(uris.schema, 'graphql://github/schema');
  assert.equal(uris.typeTemplate, 'graphql://github/types/{name}');
  assert.equal(uris.operation('GetIssue'), 'graphql://github/operations/GetIssue');
  assert.equal(resourceName(uris.schema), 'github/schema');
  assert.notEqual(resourceName(apiUris('gitlab').schema), resourceName(uris.schema));
});
