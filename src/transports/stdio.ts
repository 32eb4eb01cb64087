import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../config.js';
import { createServer } from '../server.js';

/** Serves one MCP client over stdin/stdout until it closes stdin or a signal ends the process. */
export async function serveStdio(config: Config): Promise<void> {
  const server = createServer(config);
  const stop = () => {
    void server.close().finally(() => process.exit(0));
    // A close that hangs must not keep the process alive.
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // The client closing stdin ends the session.
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  await server.connect(new StdioServerTransport());
}
