// What the tools' pipelines need only once a tool is called: graphql-js and the document analysis, the HTTP
// client, introspection, the schema cache and views. Each tool imports this module on its first call, so
// that start-up evaluates none of it and only lists tools.
//
// Nothing reachable from here may import zod or the MCP SDK at run time: the bundler would then initialise
// them lazily too, while the SDK, loaded at start-up, already uses them.
export { measureComplexity } from '../graphql/complexity.js';
export { mutationQuestion } from '../graphql/mutation-question.js';
export { analyseDocument, containsMutation, selectOperation } from '../graphql/operation.js';
export { answerSchemaQuestion, prepareSearchSoon } from '../graphql/schema-answer.js';
export { SchemaCache } from '../graphql/schema-cache.js';
export { searchTerms } from '../graphql/schema-search.js';
export { IntrospectedSchema } from '../graphql/schema-view.js';
export {
  BASIC_INTROSPECTION_QUERY,
  errorCodes,
  errorMessages,
  INTROSPECTION_QUERY,
  introspectionDisabled,
  introspectionOf,
  isAuthFailure,
  lacksNewerFields,
} from '../graphql/schema.js';
export { fitResponse, shapeNote } from '../graphql/result-shape.js';
export { denserBudget } from '../graphql/token-estimate.js';
export { hintsForMessages, validateDocument } from '../graphql/validate.js';
export { jsonLengthAtLeast, letInputIn } from '../time-slice.js';
export { postGraphQL } from '../http/post-graphql.js';
