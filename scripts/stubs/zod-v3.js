// Bundled in place of Zod 3 and zod-to-json-schema (about 70 KB), which the MCP SDK's zod-compat keeps for
// tools whose schemas are written with Zod 3. Every schema of graphql-mcp is Zod 4: the SDK takes its
// Zod 4 path for them and never reaches these.
const unused = () => {
  throw new Error('graphql-mcp does not bundle Zod 3: its schemas are Zod 4');
};
export const object = unused;
export const zodToJsonSchema = unused;
