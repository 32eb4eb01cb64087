// What must be read before serving, when the options ask for it: the schema file (--schema) and the
// operation files (--operations), checked against that schema or, without one, against the schema the
// default endpoint gives with the startup headers. Loaded only then: without these options, start-up reads
// no file and loads no graphql-js. Nothing reachable from here may import zod or the MCP SDK at run time
// (see docs/architecture.md).
import type { GraphQLSchema } from 'graphql';
import { ConfigError, type Config } from './config.js';
import { ToolError } from './errors.js';
import { buildSchemaOf } from './graphql/schema.js';
import { readSchemaFile, SchemaFileError } from './graphql/schema-file.js';
import { describeEndpoint } from './http/endpoint.js';
import { loadOperations, OperationsError, type OperationSet } from './operations/load.js';
import { loadApiSchema } from './tools/schema-source.js';

/** The configuration with its schema file read, and the operation set when operations are given. */
export interface Prepared {
  readonly config: Config;
  /** Reads the operation files again (a reload), against the schema of start-up. */
  readonly loadOperations?: () => OperationSet;
  readonly operations?: OperationSet;
}

/** Reads what the options name; a problem is a ConfigError (one line, exit 2). */
export async function prepare(config: Config): Promise<Prepared> {
  let ready = config;
  if (config.schemaFile !== undefined) {
    try {
      ready = { ...config, schema: readSchemaFile(config.schemaFile) };
    } catch (error) {
      if (error instanceof SchemaFileError) throw new ConfigError(`--schema ${error.message}`);
      throw error;
    }
  }
  if (config.operations.length === 0) return { config: ready };

  const schema = await schemaOf(ready);
  const load = () =>
    loadOperations(config.operations, {
      schema,
      maxComplexity: config.maxComplexity,
      readOnly: config.readOnly,
      endpointName: describeEndpoint(config.endpoint),
    });
  try {
    return { config: ready, loadOperations: load, operations: load() };
  } catch (error) {
    if (error instanceof OperationsError) throw new ConfigError(`--operations ${error.message}`);
    throw error;
  }
}

/** The schema operations are checked against: the file's, else the default endpoint's. */
async function schemaOf(config: Config): Promise<GraphQLSchema> {
  if (config.schema !== undefined) return buildSchemaOf(config.schema, true);
  try {
    return (await loadApiSchema(config)).validationSchema();
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    throw new ConfigError(
      `--operations: cannot check the operations against the schema of ${describeEndpoint(config.endpoint)} ` +
        `(${error.code}: ${error.message.slice(0, 300)}); give the schema with --schema`,
    );
  }
}
