import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type CacheHint,
  type McpServer,
  type ReadResourceResult,
  type Variables,
} from '@modelcontextprotocol/server';
import type { Api } from '../api/api.js';
import { ToolError } from '../common/errors.js';
import { apiTarget } from '../call/target.js';
import { Call } from '../tools/call.js';
import type { ToolContext } from '../tools/context.js';
import { schemaRead } from '../tools/introspect.js';
import { RESOURCE_MIME_TYPE, resourceName, type ApiUris } from './uris.js';
import { thousands } from '../common/text.js';
import { lazily } from '../common/lazily.js';

/** The schema's source (graphql-js), loaded when a completion first needs it. */
const schemaSource = lazily(() => import('../schema/source.js'));

/** The built-in scalars every schema has: no one asks to read them. */
const BUILT_IN_SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

/**
 * The schema of the API as resources: the overview (graphql://<api>/schema) and one type's definition
 * (graphql://<api>/types/{name}, its name completed from the schema). Each read is graphql_introspect's
 * answer to the same question, with the same cache, headers, redaction and --maxSchemaChars, and a read that
 * fails is an MCP error whose message is the tool's (`INTROSPECTION_FAILED: …`, with its advice).
 */
export function registerSchemaResources(
  server: McpServer,
  api: Api,
  tools: ToolContext,
  uris: ApiUris,
  cacheHint: CacheHint,
): () => void {
  const { config } = api;
  const endpoint = config.endpointName;
  const chars = thousands(config.maxSchemaChars);
  const schema = server.registerResource(
    resourceName(uris.schema),
    uris.schema,
    {
      title: `GraphQL schema of ${endpoint}`,
      description:
        `The schema as GraphQL SDL: whole when it fits in ${chars} characters, else an overview (root ` +
        `fields, type names). One type in full: ${uris.typeTemplate}.`,
      mimeType: RESOURCE_MIME_TYPE,
      cacheHint,
    },
    (uri, context) => readIntrospection(api, tools, undefined, uri, context.mcpReq.signal),
  );
  const type = server.registerResource(
    resourceName(uris.typeTemplate),
    typeTemplateOf(api, tools, uris),
    {
      title: `A type of ${endpoint}`,
      description: `One type's full definition as GraphQL SDL (or one member: Type.field), at most ${chars} characters.`,
      mimeType: RESOURCE_MIME_TYPE,
      cacheHint,
    },
    (uri, variables, context) => {
      const name = variableText(variables, 'name');
      if (name === '') {
        throw new ResourceNotFoundError(
          uri.href,
          `INVALID_INPUT: ${uri.href} names no type; read ${uris.typeTemplate} with a type name`,
        );
      }
      return readIntrospection(api, tools, [name], uri, context.mcpReq.signal);
    },
  );
  return () => {
    schema.remove();
    type.remove();
  };
}

/**
 * The template of an API's type resources, with the completion of its type names. Made once per configuration:
 * remote mode registers the resources on a server per request, and parsing the template is most of the cost.
 */
function typeTemplateOf(api: Api, tools: ToolContext, uris: ApiUris): ResourceTemplate {
  let template = typeTemplates.get(api);
  if (template === undefined) {
    template = new ResourceTemplate(uris.typeTemplate, {
      list: undefined,
      complete: { name: (value) => completeTypeName(api, tools, value) },
    });
    typeTemplates.set(api, template);
  }
  return template;
}
const typeTemplates = new WeakMap<Api, ResourceTemplate>();

/** graphql_introspect's answer as a resource's text, or its error as an MCP error with the same message. */
async function readIntrospection(
  api: Api,
  tools: ToolContext,
  typeNames: readonly string[] | undefined,
  uri: URL,
  signal: AbortSignal,
): Promise<ReadResourceResult> {
  const { readSchema, fitError } = await schemaRead();
  // The request's credentials for the API (remote mode's forwarded headers) go with the read and are hidden.
  const target = apiTarget(api, tools.credentials);
  const reading = new Call(tools.secrets);
  reading.sends(target);
  let texts: string[];
  try {
    const question = { includeDeprecated: false, typeNames, search: undefined };
    texts = await readSchema(target, question, reading, signal);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const message = `${error.code}: ${fitError(api.config, reading, reading.hide.text(error.message), error.code)}`;
    // An unknown type is a resource that does not exist; anything else, a failure to read one that does.
    if (error.code === 'INVALID_INPUT') throw new ResourceNotFoundError(uri.href, message);
    throw new ProtocolError(ProtocolErrorCode.InternalError, message, { code: error.code });
  }
  // The notes (shortened for dense text, values redacted) follow the text as graphql_introspect's do: its
  // budget counts two characters between texts.
  return { contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: texts.join('\n\n') }] };
}

/**
 * The schema's type names that start with `value`, then those that contain it (case-insensitive); none when
 * the schema cannot be had (a completion is a suggestion: the read that follows says what is wrong).
 */
async function completeTypeName(api: Api, tools: ToolContext, value: string): Promise<string[]> {
  let names: string[];
  try {
    const { loadApiSchema } = await schemaSource();
    const target = apiTarget(api, tools.credentials);
    const reading = new Call(tools.secrets);
    reading.sends(target);
    const schema = await loadApiSchema(target, reading.secrets);
    // A completion is an answer like any other: a name that is one of the server's secrets is left out.
    const hide = reading.hide;
    names = schema.introspection.__schema.types
      .map((type) => type.name)
      .filter((name) => !name.startsWith('__') && !BUILT_IN_SCALARS.has(name) && hide.text(name) === name);
  } catch {
    return [];
  }
  const wanted = value.trim().toLowerCase();
  const starting: string[] = [];
  const containing: string[] = [];
  for (const name of names.sort()) {
    const lower = name.toLowerCase();
    if (lower.startsWith(wanted)) starting.push(name);
    else if (lower.includes(wanted)) containing.push(name);
  }
  // All of them: the SDK sends the first 100 and the total, so that a client can say how many match.
  return [...starting, ...containing];
}

/** A URI template variable as one string (a list variable, which ours is not, joined by commas). */
function variableText(variables: Variables, name: string): string {
  const value = variables[name];
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(text).trim();
  } catch {
    return text.trim();
  }
}
