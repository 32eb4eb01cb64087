import { randomBytes } from 'node:crypto';
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { Answer, AnswerOutcome, Store } from '../store/store.js';

// A 2025-era client of remote mode is asked on the SSE stream of its tools/call, and answers with a POST that any
// replica may receive. The question's JSON-RPC id is therefore made unguessable and unique across replicas (the
// SDK numbers its requests from 0 in every server), and held in the store under that id with who may answer it;
// the replica that receives the answer hands it to the store, which brings the first one from the right asker to
// the replica whose call waits for it.

/** The questions of a deployment: held in its store, answered from any replica. */
export class Questions {
  constructor(
    private readonly store: Store,
    /** How long a question stays open (--confirmTimeout), a little longer than the call waits. */
    private readonly ttlSeconds: number,
  ) {}

  /** Holds a question that `asker` may answer; `deliver` gets the first answer. Returns its id. */
  async hold(asker: string, deliver: (answer: Answer) => void): Promise<string> {
    const id = `q-${randomBytes(18).toString('base64url')}`;
    await this.store.hold({ id, asker, ttlSeconds: this.ttlSeconds + 5, deliver });
    return id;
  }

  release(id: string): void {
    void this.store.release(id);
  }

  /** Routes an answer that reached this replica: only the first from the asker decides. */
  answer(id: string, asker: string, message: { result?: unknown; error?: unknown }): Promise<AnswerOutcome> {
    return this.store.answer(id, asker, answerOf(message));
  }
}

/** What a client's JSON-RPC response to a question says: its action, or an error (it could not ask). */
function answerOf(message: { result?: unknown; error?: unknown }): Answer {
  const action = (message.result as { action?: unknown } | undefined)?.action;
  if (action === 'accept' || action === 'decline' || action === 'cancel') return { action };
  const error = (message.error as { message?: unknown } | undefined)?.message;
  return { error: typeof error === 'string' ? error.slice(0, 200) : 'the client answered without an action' };
}

/**
 * A transport that asks through `questions`: every request the server sends (the question) gets a held,
 * unguessable id, and the answer, however it comes back, reaches the server as the response to its own id; the
 * server's cancellation of a question it gave up on names the id the client was shown, and releases it.
 * Everything else passes through to the transport it wraps.
 */
export class AskingTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  /** The questions still open: the server's own request id → the id the client was shown. */
  readonly #held = new Map<string | number, string>();

  constructor(
    private readonly inner: Transport,
    private readonly questions: Questions,
    /** Who may answer: the caller's principal and session (session.ts). */
    private readonly asker: string,
  ) {
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      for (const id of this.#held.values()) this.questions.release(id);
      this.#held.clear();
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!isJSONRPCRequest(message)) return this.inner.send(this.#withdrawn(message), options);
    const own = message.id;
    const id = await this.questions.hold(this.asker, (answer) => {
      this.#held.delete(own);
      const response =
        'action' in answer
          ? { jsonrpc: '2.0' as const, id: own, result: { action: answer.action } }
          : { jsonrpc: '2.0' as const, id: own, error: { code: -32603, message: answer.error } };
      this.onmessage?.(response);
    });
    this.#held.set(own, id);
    return this.inner.send({ ...message, id }, options);
  }

  /** A cancellation of a held question, renamed to the id the client knows it by; the question released. */
  #withdrawn(message: JSONRPCMessage): JSONRPCMessage {
    if (!('method' in message) || message.method !== 'notifications/cancelled') return message;
    const own = (message.params as { requestId?: string | number } | undefined)?.requestId;
    const id = own === undefined ? undefined : this.#held.get(own);
    if (id === undefined) return message;
    this.#held.delete(own!);
    this.questions.release(id);
    return { ...message, params: { ...message.params, requestId: id } };
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }
}
