// What must be read before serving, when the options ask for it: an API's schema file (--schema) and its
// operation files (--operations), checked against that schema or, without one, against the schema its endpoint
// gives with its configured headers. Loaded only then: without these options, start-up reads no file and loads
// no graphql-js. Nothing reachable from here may import zod or the MCP SDK at run time (docs/architecture.md).
import type { GraphQLSchema } from 'graphql';
import { ConfigError } from '../config/parsers.js';
import type { ApiConfig } from '../config/types.js';
import { ToolError } from '../common/errors.js';
import { readSchemaFile, SchemaFileError } from '../schema/file.js';
import { loadOperations, OperationsError, type OperationSet } from '../operations/load.js';
import type { Secrets } from '../redaction/redactor.js';
import type { Api } from '../api/api.js';
import { apiTarget } from '../call/target.js';
import { loadApiSchema } from '../schema/source.js';

/** An API with what its options name read: its schema file, and its operations with what reads them again. */
export interface PreparedApi {
  readonly api: Omit<Api, 'operations'>;
  /** Lines for stderr about what was read: definitions of the schema file left out. */
  readonly warnings: readonly string[];
  readonly operations?: {
    readonly set: OperationSet;
    /** Reads the operation files again (a reload), against the schema of start-up. */
    readonly reload: () => OperationSet;
  };
}

/** Reads what an API's options name; a problem is a ConfigError (one line, exit 2). */
export async function prepare(config: ApiConfig, secrets: Secrets): Promise<PreparedApi> {
  let api: Omit<Api, 'operations'> = { config };
  const warnings: string[] = [];
  if (config.schemaFile !== undefined) {
    try {
      const file = readSchemaFile(config.schemaFile);
      api = { config, schema: file.schema };
      if (file.warning !== undefined) warnings.push(`--schema ${file.warning}`);
    } catch (error) {
      if (error instanceof SchemaFileError) throw new ConfigError(`--schema ${error.message}`);
      throw error;
    }
  }
  if (config.operations.length === 0) return { api, warnings };

  const schema = await schemaOf(api, secrets);
  const reload = () =>
    loadOperations(config.operations, {
      schema,
      maxComplexity: config.maxComplexity,
      readOnly: config.readOnly,
      endpointName: config.endpointName,
      scalars: config.scalars,
    });
  try {
    return { api, warnings, operations: { set: reload(), reload } };
  } catch (error) {
    if (error instanceof OperationsError) throw new ConfigError(`--operations ${error.message}`);
    throw error;
  }
}

/** The schema operations are checked against: the file's, else the endpoint's. */
async function schemaOf(api: Omit<Api, 'operations'>, secrets: Secrets): Promise<GraphQLSchema> {
  if (api.schema !== undefined) return api.schema.validationSchema();
  try {
    return (await loadApiSchema(apiTarget(api), secrets)).validationSchema();
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    throw new ConfigError(
      `--operations: cannot check the operations against the schema of ${api.config.endpointName} ` +
        `(${error.code}: ${error.message.slice(0, 300)}); give the schema with --schema`,
    );
  }
}
