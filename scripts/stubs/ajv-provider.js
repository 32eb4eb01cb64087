// Bundled in place of the MCP SDK's Ajv-based JSON Schema validator (about 130 KB with its formats),
// which the SDK's Server constructs at start-up for elicitation only. graphql-mcp never elicits.
export class AjvJsonSchemaValidator {
  getValidator() {
    throw new Error('graphql-mcp does not bundle a JSON Schema validator: elicitation is not used');
  }
}
