import type { Config } from './config.js';
import type { LiveOperations } from './operations/live.js';

/** One API as the server serves it: its configuration, and its operation tools (followed when watched). */
export interface ServedApi {
  readonly config: Config;
  readonly operations?: LiveOperations;
}
