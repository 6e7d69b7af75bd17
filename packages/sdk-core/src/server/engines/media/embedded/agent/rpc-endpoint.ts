import { randomUUID } from 'node:crypto';
import { RpcAck, RpcError, RpcRequest, RpcResponse } from '@livekit/protocol';
import type { RpcInvocation } from '../../agent-transport.js';
import { RpcCallError, RpcErrorCode } from '../../rpc-error.js';

type RpcPacket = { case: 'rpcRequest'; value: RpcRequest } | { case: 'rpcAck'; value: RpcAck } | { case: 'rpcResponse'; value: RpcResponse };

/** Sends an RPC packet to one participant. */
export type RpcSend = (destination: string, packet: RpcPacket) => Promise<void>;

interface PendingCall {
  destination: string;
  resolve: (payload: string) => void;
  reject: (error: RpcCallError) => void;
  ackTimer: NodeJS.Timeout;
  responseTimer: NodeJS.Timeout;
}

/** Ack wait before a call fails as `connectionTimeout` (LiveKit SDKs use 7 s). */
const ACK_TIMEOUT_MS = 7000;

/**
 * LiveKit RPC (v1, over data packets) for the in-process agent: registered methods answer
 * requests (ack, then response or error), and `perform` calls methods of other participants.
 *
 * @example
 * rpc.register('ping', async () => 'pong');
 * const answer = await rpc.perform({ destinationIdentity: 'human', method: 'echo', payload: 'hi' });
 */
export class RpcEndpoint {
  private readonly methods = new Map<string, (invocation: RpcInvocation) => Promise<string>>();
  private readonly pending = new Map<string, PendingCall>();

  constructor(private readonly send: RpcSend) {}

  register(method: string, handler: (invocation: RpcInvocation) => Promise<string>): void {
    this.methods.set(method, handler);
  }

  perform(options: { destinationIdentity: string; method: string; payload: string; responseTimeoutMs?: number }): Promise<string> {
    const id = randomUUID();
    const responseTimeoutMs = options.responseTimeoutMs ?? 10_000;
    return new Promise<string>((resolve, reject) => {
      const fail = (error: RpcCallError) => {
        const call = this.pending.get(id);
        if (!call) return;
        clearTimeout(call.ackTimer);
        clearTimeout(call.responseTimer);
        this.pending.delete(id);
        reject(error);
      };
      const call: PendingCall = {
        destination: options.destinationIdentity,
        resolve: (payload) => {
          clearTimeout(call.ackTimer);
          clearTimeout(call.responseTimer);
          this.pending.delete(id);
          resolve(payload);
        },
        reject: fail,
        ackTimer: setTimeout(() => fail(new RpcCallError(RpcErrorCode.connectionTimeout, 'Connection timeout')), ACK_TIMEOUT_MS),
        responseTimer: setTimeout(() => fail(new RpcCallError(RpcErrorCode.responseTimeout, 'Response timeout')), responseTimeoutMs),
      };
      this.pending.set(id, call);
      this.send(options.destinationIdentity, {
        case: 'rpcRequest',
        value: new RpcRequest({ id, method: options.method, payload: options.payload, responseTimeoutMs, version: 1 }),
      }).catch((error: unknown) => fail(new RpcCallError(1505, `Send failed: ${(error as Error).message}`)));
    });
  }

  /** Handles an RPC packet from `from`. */
  handle(packet: RpcPacket, from: string): void {
    switch (packet.case) {
      case 'rpcRequest':
        void this.answer(packet.value, from);
        return;
      case 'rpcAck': {
        const call = this.pending.get(packet.value.requestId);
        if (call?.destination === from) clearTimeout(call.ackTimer);
        return;
      }
      case 'rpcResponse': {
        const call = this.pending.get(packet.value.requestId);
        if (!call || call.destination !== from) return;
        const value = packet.value.value;
        if (value.case === 'error') call.reject(new RpcCallError(value.value.code, value.value.message, value.value.data));
        else call.resolve(value.case === 'payload' ? value.value : '');
        return;
      }
    }
  }

  /** Fails the calls waiting on a participant that left. */
  participantLeft(identity: string): void {
    for (const call of [...this.pending.values()]) {
      if (call.destination === identity) call.reject(new RpcCallError(RpcErrorCode.recipientDisconnected, 'Recipient disconnected'));
    }
  }

  close(): void {
    for (const call of [...this.pending.values()]) call.reject(new RpcCallError(RpcErrorCode.recipientDisconnected, 'Disconnected'));
  }

  private async answer(request: RpcRequest, from: string): Promise<void> {
    await this.send(from, { case: 'rpcAck', value: new RpcAck({ requestId: request.id }) }).catch(() => undefined);
    const handler = this.methods.get(request.method);
    let response: RpcResponse;
    if (!handler) {
      response = new RpcResponse({
        requestId: request.id,
        value: { case: 'error', value: new RpcError({ code: RpcErrorCode.unsupportedMethod, message: 'Method not supported at destination' }) },
      });
    } else {
      try {
        const payload = await handler({ requestId: request.id, callerIdentity: from, payload: request.payload, responseTimeoutMs: request.responseTimeoutMs });
        response = new RpcResponse({ requestId: request.id, value: { case: 'payload', value: payload } });
      } catch (error) {
        const known = error instanceof RpcCallError;
        response = new RpcResponse({
          requestId: request.id,
          value: {
            case: 'error',
            value: new RpcError({
              code: known ? error.code : RpcErrorCode.applicationError,
              message: known ? error.message : 'Application error in method handler',
              data: known ? (error.data ?? '') : '',
            }),
          },
        });
      }
    }
    await this.send(from, { case: 'rpcResponse', value: response }).catch(() => undefined);
  }
}
