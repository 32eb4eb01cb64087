import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A line's JSON as a JSON-RPC message, checked as the SDK's stdio transport checks it (throws if it is not
 * one); `plain` says it passed isPlainRequest.
 */
export function readMessage(value: unknown): { message: JSONRPCMessage; plain: boolean } {
  return isPlainRequest(value)
    ? { message: value, plain: true }
    : { message: JSONRPCMessageSchema.parse(value), plain: false };
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

/** Where the SDK's Protocol sends a message once its type guards have told what it is (SDK 1.32). */
interface ProtocolDispatch {
  _onrequest(request: JSONRPCMessage): void;
  _onnotification(notification: JSONRPCMessage): void;
}

/**
 * Hands plain requests (isPlainRequest) to a connected Protocol, the SDK's Server, past the zod type guards
 * its transport handler runs on every message: three strict object schemas, two of which fail for a request
 * and build an error to say so, ~15 µs a call. For a plain request their answer is known: a request if it
 * has an id, else a notification (the two response schemas need a result or an error, and allow no method).
 * Undefined when this SDK's Protocol lacks the methods: messages then take the transport's onmessage.
 */
export function plainDispatch(protocol: object): ((message: JSONRPCMessage) => void) | undefined {
  const target = protocol as Partial<ProtocolDispatch>;
  if (typeof target._onrequest !== 'function' || typeof target._onnotification !== 'function')
    return undefined;
  const { _onrequest, _onnotification } = target as ProtocolDispatch;
  return (message) =>
    'id' in message ? _onrequest.call(target, message) : _onnotification.call(target, message);
}
