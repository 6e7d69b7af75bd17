import { SignalRequest, SignalResponse } from '@livekit/protocol';
import type { WebSocket } from 'ws';
import { TokenBucket } from './token-bucket.js';

type SignalResponseMessage = SignalResponse['message'];
export type SignalRequestMessage = SignalRequest['message'];

export interface SignalConnectionLimits {
  /** Requests per second a client may send before it is disconnected (bursts allowed up to 2x). */
  requestsPerSecond: number;
  /** Undecodable messages tolerated before the socket is closed. */
  maxMalformed: number;
}

export const defaultSignalLimits: SignalConnectionLimits = { requestsPerSecond: 200, maxMalformed: 3 };

/** WebSocket close codes used when a client misbehaves. */
export const CloseCode = {
  normal: 1000,
  unsupportedData: 1003,
  invalidPayload: 1007,
  policyViolation: 1008,
  tooLarge: 1009,
} as const;

/**
 * One signalling websocket: protobuf `SignalResponse` out, `SignalRequest` in. Undecodable input and
 * floods end in a close with a reason, never an exception escaping to the server.
 *
 * @example
 * const connection = new SignalConnection(socket);
 * connection.onRequest((message) => session.handle(message));
 * connection.send({ case: 'pongResp', value: pong });
 */
export class SignalConnection {
  private requestListener: ((message: SignalRequestMessage) => void) | undefined;
  private closeListeners: Array<(code: number, reason: string) => void> = [];
  private malformed = 0;
  private readonly bucket: TokenBucket;
  private closedFlag = false;
  /** Messages that arrived before a listener was set (the client may talk right after the join). */
  private backlog: SignalRequestMessage[] = [];

  constructor(
    private readonly socket: WebSocket,
    private readonly limits: SignalConnectionLimits = defaultSignalLimits,
  ) {
    this.bucket = new TokenBucket(limits.requestsPerSecond);
    socket.binaryType = 'nodebuffer';
    socket.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
    socket.on('close', (code, reason) => this.handleClose(code, reason.toString()));
    socket.on('error', () => this.close(CloseCode.invalidPayload, 'socket error'));
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  onRequest(listener: (message: SignalRequestMessage) => void): void {
    this.requestListener = listener;
    const backlog = this.backlog;
    this.backlog = [];
    for (const message of backlog) listener(message);
  }

  onClose(listener: (code: number, reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  send(message: SignalResponseMessage): void {
    if (this.closedFlag || this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(new SignalResponse({ message }).toBinary());
  }

  close(code: number = CloseCode.normal, reason = ''): void {
    if (this.closedFlag) return;
    this.socket.close(code, reason.slice(0, 120));
    // A peer that never answers the closing handshake must not keep the socket open.
    setTimeout(() => this.socket.terminate(), 2000).unref();
    this.handleClose(code, reason);
  }

  /** Drops the socket without a closing handshake (tests simulating a lost network). */
  terminate(): void {
    this.socket.terminate();
  }

  private handleClose(code: number, reason: string): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const listener of this.closeListeners) listener(code, reason);
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (this.closedFlag) return;
    if (!this.bucket.take()) {
      this.close(CloseCode.policyViolation, 'too many requests');
      return;
    }
    let request: SignalRequest;
    try {
      request = isBinary ? SignalRequest.fromBinary(data) : SignalRequest.fromJsonString(data.toString('utf8'), { ignoreUnknownFields: true });
    } catch {
      this.malformed += 1;
      if (this.malformed >= this.limits.maxMalformed) this.close(CloseCode.invalidPayload, 'malformed signal messages');
      return;
    }
    if (!request.message.case) return;
    if (this.requestListener) this.requestListener(request.message);
    else if (this.backlog.length < 100) this.backlog.push(request.message);
  }
}
