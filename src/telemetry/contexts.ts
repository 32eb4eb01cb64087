import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';

/**
 * The current OpenTelemetry context of this server's telemetry, in an AsyncLocalStorage of its own (never the
 * global context manager: a host's or a test's second instance keeps its own). Its store is what the
 * diagnostics channels' traced operations bind (`bindStore`), so that what an operation starts is its child.
 */
export class Contexts {
  readonly store = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.store.getStore() ?? ROOT_CONTEXT;
  }

  with<T>(context: Context, fn: () => T): T {
    return this.store.run(context, fn);
  }
}
