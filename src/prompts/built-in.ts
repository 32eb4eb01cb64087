import type { Api } from '../api/api.js';
import type { PromptDefinition } from './prompt.js';

/** The names of the built-in prompts; an operator's prompt may not take them. */
export const BUILT_IN_PROMPTS = ['explore_api', 'write_query', 'explain_error'] as const;

// How to read a schema spending the least context: each step reads less than the one before it would if
// it were skipped (a model that starts with typeNames guesses names; one that reads the whole schema of a
// large API fills its context).
const SCHEMA_STEPS =
  'graphql_introspect with no arguments (the overview: root fields, type names), then with search (words ' +
  'from the task) to find the types and fields involved, then with typeNames for only the types you will ' +
  'select from';

/**
 * The prompts that start work with the built-in tools well: explore the API for a goal, write a query for a
 * need, explain an error. Each is short and names the tools in the order that spends the least context.
 */
export function builtInPrompts(apis: readonly Api[]): PromptDefinition[] {
  const configs = apis.map((api) => api.config);
  const api =
    configs.length === 1
      ? `the GraphQL API at ${configs[0]!.endpointName}`
      : `the GraphQL APIs of this server (${configs.map((config) => `${config.name}: ${config.endpointName}`).join('; ')}; the tools' api input picks one)`;
  return [
    {
      name: 'explore_api',
      title: 'Explore the API for a goal',
      description: 'Find what the API offers for a goal, then write and run the query that reaches it.',
      arguments: [
        {
          name: 'goal',
          description: 'What you want to find out or get, e.g. "the five newest open issues of a repository"',
          required: true,
        },
      ],
      render: ({ goal }) =>
        `Goal: ${goal ?? ''}\n\n` +
        `Reach this goal with ${api}, reading as little of its schema as you can:\n` +
        `1. ${SCHEMA_STEPS}.\n` +
        '2. Write the query with variables for the values, selecting only the fields the goal needs, and ' +
        'run it with graphql_query; page through long lists with small page sizes.\n' +
        '3. If a call fails, its error code and message say what to change: change it and run it again.\n' +
        'Then answer the goal from the result. Run no mutation unless the goal is to change data.',
    },
    {
      name: 'write_query',
      title: 'Write a query',
      description:
        'Write a GraphQL query (or mutation) for a need described in words, checked against the API.',
      arguments: [
        {
          name: 'need',
          description:
            'What the query should return or do, e.g. "a user\'s repositories with their star counts"',
          required: true,
        },
      ],
      render: ({ need }) =>
        `Write a GraphQL document for ${api} that does this: ${need ?? ''}\n\n` +
        `Learn what it needs from the schema, stopping as soon as you know enough: ${SCHEMA_STEPS}. ` +
        'Use variables for the values that change. Check a query by running it with graphql_query (with a ' +
        'small page size) and fix it until it runs without errors; a mutation you write but do not run. ' +
        'Reply with the document, its variables as JSON, and one line on what it returns.',
    },
    {
      name: 'explain_error',
      title: 'Explain an error',
      description: 'Explain an error from the API or from graphql-mcp, and how to fix the query.',
      arguments: [
        {
          name: 'error',
          description: 'The error message or the GraphQL response with errors',
          required: true,
        },
        { name: 'query', description: 'The GraphQL document that failed', required: false },
      ],
      render: ({ error, query }) =>
        `Explain this error from ${api}, and how to fix it:\n\n${error ?? ''}\n\n` +
        (query === undefined ? '' : `The document that failed:\n\n\`\`\`graphql\n${query}\n\`\`\`\n\n`) +
        "graphql-mcp's own errors start with a code (e.g. COMPLEXITY_LIMIT, VALIDATION_FAILED) and say " +
        'what to change. Where the error names a type, field or argument, check it with graphql_introspect ' +
        'typeNames (or search, to find the right name) rather than reading the whole schema. Say in a ' +
        'sentence or two what went wrong, then give the corrected document; run it with graphql_query only ' +
        'if it is a query.',
    },
  ];
}
