import { randomBytes } from 'node:crypto';
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { ANSWER_LOST_CODE, type Answer, type AnswerOutcome, type Store } from '../store/store.js';
import { CannotAsk } from '../tools/confirmation.js';

// A 2025-era client of remote mode is asked on the SSE stream of its tools/call, and answers with a POST that any
// replica may receive. The question's JSON-RPC id is therefore made unguessable and unique across replicas (the
// SDK numbers its requests from 0 in every server), and held in the store under that id with who may answer it;
// the replica that receives the answer hands it to the store, which brings the first one from the right asker to
// the replica whose call waits for it.

/** The questions of a deployment: held in its store, answered from any replica. */
export class Questions {
  /** The user of each question open on this replica, and how many each user has open. */
  readonly #users = new Map<string, string>();
  readonly #open = new Map<string, number>();

  constructor(
    private readonly store: Store,
    /** How long a question stays open (--confirmTimeout), a little longer than the call waits. */
    private readonly ttlSeconds: number,
    /** Most questions one user may have open here at once (--maxOpenQuestions). */
    private readonly perUser: number,
  ) {}

  /**
   * Holds a question that `asker` may answer; `deliver` gets the first answer. Returns its id. A `user` with
   * --maxOpenQuestions open already is refused (CannotAsk): each open question holds a place of --maxInFlight
   * while the person thinks, and one user must not lock the team out.
   */
  async hold(asker: string, user: string, deliver: (answer: Answer) => void): Promise<string> {
    const open = this.#open.get(user) ?? 0;
    if (open >= this.perUser) {
      throw new CannotAsk(
        `this user already has ${open} questions about mutations waiting for an answer (--maxOpenQuestions=${this.perUser})`,
      );
    }
    const id = `q-${randomBytes(18).toString('base64url')}`;
    this.#users.set(id, user);
    this.#open.set(user, open + 1);
    try {
      await this.store.hold({
        id,
        asker,
        ttlSeconds: this.ttlSeconds + 5,
        deliver: (answer) => {
          this.#closed(id);
          deliver(answer);
        },
      });
    } catch (error) {
      this.#closed(id);
      throw error;
    }
    return id;
  }

  release(id: string): void {
    this.#closed(id);
    void this.store.release(id);
  }

  /** A question no longer open here: answered, released, or never held. */
  #closed(id: string): void {
    const user = this.#users.get(id);
    if (user === undefined) return;
    this.#users.delete(id);
    const open = (this.#open.get(user) ?? 1) - 1;
    if (open > 0) this.#open.set(user, open);
    else this.#open.delete(user);
  }

  /** Routes an answer that reached this replica: only the first from the asker decides. */
  answer(id: string, asker: string, message: { result?: unknown; error?: unknown }): Promise<AnswerOutcome> {
    return this.store.answer(id, asker, answerOf(message));
  }
}

/** What a client's JSON-RPC response to a question says: its action, or an error (it could not ask). */
function answerOf(message: { result?: unknown; error?: unknown }): Answer {
  // A response holds a result or an error, never both (JSON-RPC 2.0): such a one is no accept.
  if ('result' in message && 'error' in message) {
    return { error: 'the client answered with both a result and an error' };
  }
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
    /** Who the questions are put to, for the bound on those open at once: the principal, else the session. */
    private readonly user: string,
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
    const id = await this.questions.hold(this.asker, this.user, (answer) => {
      this.#held.delete(own);
      this.onmessage?.(responseTo(own, answer));
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

/** The JSON-RPC response an answer is to the server's own request `id`. */
function responseTo(id: string | number, answer: Answer): JSONRPCMessage {
  if ('action' in answer) return { jsonrpc: '2.0', id, result: { action: answer.action } };
  // The store lost it: a code of its own, so that the call refuses rather than declines.
  if ('lost' in answer)
    return { jsonrpc: '2.0', id, error: { code: ANSWER_LOST_CODE, message: answer.lost } };
  return { jsonrpc: '2.0', id, error: { code: -32603, message: answer.error } };
}
