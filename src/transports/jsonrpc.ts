import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A parsed line as a JSON-RPC message, checked as the SDK's stdio transport checks it; throws if it is not one. */
export function toJsonRpcMessage(value: unknown): JSONRPCMessage {
  return isPlainRequest(value) ? value : JSONRPCMessageSchema.parse(value);
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The common case of JSONRPCMessageSchema, checked without zod, whose union of four object schemas costs
 * more than the rest of receiving a message: a request or notification whose params, if any, are an object
 * without `_meta`. What passes here is what the schema accepts and would return unchanged (the schema
 * copies; nothing needs a copy); everything else is left to the schema.
 */
export function isPlainRequest(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message['jsonrpc'] !== '2.0' || typeof message['method'] !== 'string') return false;
  for (const key of Object.keys(message)) if (!MESSAGE_KEYS.has(key)) return false;
  const { id, params } = message;
  if ('id' in message && typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (!('params' in message)) return true;
  return (
    typeof params === 'object' &&
    params !== null &&
    !Array.isArray(params) &&
    !Object.hasOwn(params, '_meta') &&
    !Object.hasOwn(params, '__proto__')
  );
}
