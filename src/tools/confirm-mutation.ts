import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import {
  createRequestStateCodec,
  type CallToolResult,
  type InputRequiredResult,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { QUERY_VIEW_URI, type Views } from '../apps/views.js';
import { ToolError } from '../common/errors.js';
import { isObject } from '../common/is-object.js';
import type { ServerConfig } from '../config/types.js';
import type { Store } from '../store/store.js';
import { toolPrefix } from '../api/api.js';
import { apiTarget } from '../call/target.js';
import { Call, guarded } from './call.js';
import {
  bindingOf,
  claimOnce,
  cryptoModule,
  declined,
  mismatch,
  stateKeyOf,
  unavailable,
  type Confirm,
  type Decision,
  type Panel,
} from './confirmation.js';
import type { ToolContext } from './context.js';
import { advertisedInputs, parseInput } from './input.js';
import { NOTES_KEY } from './notes.js';
import { queryRun, runQuery } from './query.js';
import * as z from './zod.js';

// The confirmation panel: where a mutation needs the person's word and the client can be asked neither by
// elicitation nor by input_required, but renders MCP Apps, the mutation is not sent. The tool answers that it
// waits, and the answer's `_meta` (which a host hands to the view, not to the model) holds the question and a
// confirmation: signed, single-use, expiring with --confirmTimeout, bound as a 2026 requestState is (tool, API,
// endpoint, document, operation, variables, the call's headers, user; confirmation.ts's bindingOf) and holding
// the call itself, sealed, since the call's own headers may be secrets. The view shows the question with Run and
// Cancel; Run calls graphql_confirm_mutation, an app-only tool, which opens the call, runs it through the whole
// pipeline again and sends it only if the recomputed binding matches and the confirmation was never used, on
// any replica sharing the store. A confirmation of another user, altered, replayed or expired sends nothing.

/** The app-only tool the panel's Run button calls. */
const CONFIRM_TOOL = 'graphql_confirm_mutation';
/** Where a waiting mutation's result holds its confirmation, for the view alone. */
const CONFIRMATION_KEY = 'graphql-mcp/confirmation';
/** Where it holds the question the panel shows (the one elicitation would put). */
const QUESTION_KEY = 'graphql-mcp/question';

export const inputSchema = z.strictObject({
  confirmation: z
    .string({ error: "must be the confirmation string of graphql-mcp's panel" })
    .refine((given) => given !== '', 'must not be empty')
    .describe("The confirmation that graphql-mcp's panel was given with the mutation"),
});

/** What a confirmation carries: the binding, a nonce for single use, the call sealed. */
interface Confirmation {
  readonly b: string;
  readonly n: string;
  readonly c: string;
  /** The store's epoch when it was minted (Store.epoch): a restart that lost the marks makes it stale. */
  readonly e: string;
}

/**
 * What a call sent when it waited, as PendingMutation.call holds it: tool, API, endpoint, document, operation
 * name, variables and the call's own headers.
 */
type PendingCall = readonly [
  string,
  string,
  string,
  string,
  string | null,
  Record<string, unknown> | null,
  ReadonlyArray<readonly [string, string]>,
];

/** The panel of a server whose views are `views`: a mutation waits for the person when its client renders them. */
export function panelOf(views: Views, settings: ServerConfig, store: Store): Panel {
  return async (ctx, mutation): Promise<Decision | undefined> => {
    if (!views.rendersApps(ctx)) return undefined;
    // No store, no panel: a confirmation that could not be claimed once is never handed out.
    let epoch: string;
    try {
      epoch = await store.epoch();
    } catch {
      return { kind: 'refuse', outcome: 'refused', error: unavailable() };
    }
    const { codec, seal } = await keysOf(settings);
    const { randomUUID } = await cryptoModule();
    const confirmation = await codec.mint({
      b: await bindingOf(ctx, mutation),
      n: randomUUID(),
      c: seal(JSON.stringify(mutation.call)),
      e: epoch,
    });
    return {
      kind: 'ask',
      outcome: 'asked',
      result: waiting(mutation.question, confirmation, settings.confirmTimeout),
    };
  };
}

/** The answer of a call whose mutation waits: what the model reads, and the panel's part in `_meta`. */
function waiting(question: string, confirmation: string, timeout: number): CallToolResult {
  const note =
    `Waiting for the user: this mutation is shown to them in a panel beside the conversation, with Run and ` +
    `Cancel, for ${timeout} s (--confirmTimeout); nothing has been sent. Do not call the tool again for it: ` +
    `the panel tells you what they decided.`;
  // `waitsFor` tells the view that a confirmation belongs with this result: a host that keeps `_meta` from the
  // view leaves it with a panel that cannot confirm, which the view says.
  const structured = { extensions: { [NOTES_KEY]: { notes: [note], waitsFor: 'panel' } } };
  return {
    content: [JSON.stringify(structured), note].map((text) => ({ type: 'text' as const, text })),
    structuredContent: structured,
    _meta: { [CONFIRMATION_KEY]: confirmation, [QUESTION_KEY]: question },
  };
}

/**
 * Registers graphql_confirm_mutation (`visibility: ["app"]`: listed to a client that renders MCP Apps, for its
 * views only); returns what removes it again.
 */
export function registerConfirmTool(
  server: McpServer,
  tools: ToolContext & { readonly views: Views },
  store: Store,
  settings: ServerConfig,
  allowed: (name: string) => boolean,
): () => void {
  const tool = registerAppTool(
    server,
    CONFIRM_TOOL,
    {
      title: 'Run a confirmed GraphQL mutation',
      description:
        "Runs a mutation that the user confirmed in graphql-mcp's panel, with the panel's confirmation. Only the panel can call it.",
      // The confirmation names its API: no `api` input.
      inputSchema: advertisedInputs(CONFIRM_TOOL, []),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      _meta: { ui: { resourceUri: QUERY_VIEW_URI, visibility: ['app'] } },
    },
    tools.diagnostics.reported(CONFIRM_TOOL, (args, ctx) =>
      confirmMutation(tools, store, settings, allowed, args, ctx),
    ),
  );
  tools.views.appOnly(tool);
  return () => {
    tools.views.forget(tool);
    tool.remove();
  };
}

/** One Run of the panel: the confirmation checked, then the call it holds run once. */
async function confirmMutation(
  tools: ToolContext,
  store: Store,
  settings: ServerConfig,
  allowed: (name: string) => boolean,
  args: unknown,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const call = new Call(tools.secrets);
  return guarded(call, async () => {
    const { confirmation } = parseInput(inputSchema, args);
    const { codec, open } = await keysOf(settings);
    let payload: Confirmation;
    let pending: PendingCall;
    try {
      payload = await codec.verify(confirmation, ctx);
      pending = pendingCall(JSON.parse(open(payload.c)));
    } catch (error) {
      if (error instanceof Error && error.message === 'expired') {
        throw declined(
          `the user did not run it within ${settings.confirmTimeout} s (--confirmTimeout), so the mutation was declined`,
        );
      }
      throw mismatch('it was altered or not minted by this server');
    }
    // Another user's confirmation is refused before anything of the call is done.
    if ((await bindingOf(ctx, { call: pending, question: '', policy: 'confirm' })) !== payload.b) {
      throw mismatch('it was given for another call');
    }
    return rerun(tools, settings, allowed, pending, ctx, confirmOnce(tools, store, settings, payload, ctx));
  });
}

/** The Confirm of a run from the panel: the person said yes once, to exactly this call. */
function confirmOnce(
  tools: ToolContext,
  store: Store,
  settings: ServerConfig,
  payload: Confirmation,
  ctx: ServerContext,
): Confirm {
  const refuse = (error: ToolError): Decision => ({ kind: 'refuse', outcome: 'refused', error });
  return {
    async decide(mutation) {
      // The call as the pipeline worked it out again, under today's configuration, bound as it was.
      if ((await bindingOf(ctx, mutation)) !== payload.b)
        return refuse(mismatch('it was given for another call'));
      return (
        (await claimOnce(store, `panel:${payload.n}`, settings, payload.e)) ?? {
          kind: 'run',
          outcome: 'accepted',
        }
      );
    },
    audit: (entry) => tools.confirmer.forCall(ctx).audit(entry),
  };
}

/** Runs the waiting call again, as its tool would, with `confirm` deciding its mutation. */
async function rerun(
  tools: ToolContext,
  settings: ServerConfig,
  allowed: (name: string) => boolean,
  [tool, apiName, endpoint, query, operationName, variables, headers]: PendingCall,
  ctx: ServerContext,
  confirm: Confirm,
): Promise<CallToolResult | InputRequiredResult> {
  const signal = ctx.mcpReq.signal;
  const api = tools.apis.find((candidate) => candidate.config.name === apiName);
  if (api === undefined) throw mismatch(`the API ${apiName} is no longer served`);
  if (tool === 'graphql_query') {
    if (!settings.tools.includes('graphql_query') || !allowed(tool)) throw mismatch(`${tool} is not offered`);
    const args = {
      query,
      endpoint,
      allowMutations: true,
      ...(operationName !== null && { operationName }),
      ...(variables !== null && { variables }),
      ...(headers.length > 0 && { headers: Object.fromEntries(headers) }),
      ...(tools.apis.length > 1 && { api: apiName }),
    };
    return runQuery(tools, args, signal, confirm);
  }
  const operation = api.operations?.current.tools.find((candidate) => candidate.name === tool);
  if (operation === undefined || !allowed(toolPrefix(api, tools.apis) + tool)) {
    throw mismatch(`the tool ${tool} is not offered`);
  }
  const call = new Call(tools.secrets);
  return guarded(call, async () => {
    const target = apiTarget(api, tools.credentials);
    call.sends(target);
    const { runOperation } = await queryRun();
    return runOperation(target, operation, variables ?? {}, call, signal, confirm);
  });
}

/** A sealed call as it was sealed, or an error. */
function pendingCall(value: unknown): PendingCall {
  const fits =
    Array.isArray(value) &&
    value.length === 7 &&
    value.slice(0, 4).every((part) => typeof part === 'string') &&
    (value[4] === null || typeof value[4] === 'string') &&
    (value[5] === null || isObject(value[5])) &&
    Array.isArray(value[6]);
  if (!fits) throw new Error('malformed');
  return value as unknown as PendingCall;
}

/** The panel's keys: its own codec (a key derived for it) and the sealing of calls. */
interface Keys {
  readonly codec: RequestStateCodec<Confirmation>;
  seal(plain: string): string;
  open(sealed: string): string;
}

const keys = new Map<string, Promise<Keys>>();

function keysOf(settings: ServerConfig): Promise<Keys> {
  const id = `${settings.http.stateKey ?? ''}\n${settings.confirmTimeout}`;
  let made = keys.get(id);
  if (made === undefined) {
    made = makeKeys(settings);
    keys.set(id, made);
  }
  return made;
}

async function makeKeys(settings: ServerConfig): Promise<Keys> {
  const { createCipheriv, createDecipheriv, createHmac, randomBytes } = await cryptoModule();
  const stateKey = await stateKeyOf(settings);
  // Keys of their own, derived: a confirmation never passes for a 2026 requestState or a session id, nor these
  // for it, though one --stateKey signs them all.
  const derive = (purpose: string) => createHmac('sha256', stateKey).update(purpose).digest();
  const sealing = derive('graphql-mcp panel seal');
  return {
    codec: createRequestStateCodec<Confirmation>({
      key: derive('graphql-mcp panel confirmation'),
      ttlSeconds: settings.confirmTimeout,
    }),
    // AES-256-GCM: nobody but the server reads the call's headers, and nobody can change a byte of it.
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealing, iv);
      const text = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), text]).toString('base64url');
    },
    open(sealed) {
      const bytes = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', sealing, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
