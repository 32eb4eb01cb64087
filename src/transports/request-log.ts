import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What one request-log line says beyond its time: the request's method and path (never its query string or
 * a header value), what the front learnt (who called, which JSON-RPC method and tool, an internal error) and,
 * when the response closes, its status, its duration and whether the client went away before the end.
 */
export interface LogEntry {
  method: string | undefined;
  path: string;
  sub?: string;
  rpc?: string;
  tool?: string;
  error?: string;
  status?: number;
  ms?: number;
  aborted?: true;
}

/** Starts the log line of a request; `log` gets it as JSON when the response closes. */
export function logRequest(req: IncomingMessage, res: ServerResponse, log: (line: string) => void): LogEntry {
  const started = performance.now();
  const entry: LogEntry = { method: req.method, path: (req.url ?? '').split('?', 1)[0]! };
  res.on('close', () => {
    entry.status = res.statusCode;
    entry.ms = Math.round((performance.now() - started) * 10) / 10;
    if (!res.writableFinished) entry.aborted = true;
    log(JSON.stringify({ time: new Date().toISOString(), ...entry }));
  });
  return entry;
}

/** The JSON-RPC method and tool name of a message (the arguments are never logged), in the entry too. */
export function describeCall(message: unknown, entry: LogEntry): { method?: string; tool?: string } {
  const call = message as { method?: unknown; params?: { name?: unknown } } | null;
  const method = typeof call?.method === 'string' ? call.method : undefined;
  const tool = typeof call?.params?.name === 'string' ? call.params.name : undefined;
  if (method !== undefined) entry.rpc = method.slice(0, 60);
  if (tool !== undefined) entry.tool = tool.slice(0, 60);
  return { method, tool };
}
