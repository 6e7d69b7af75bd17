import type { Logger } from 'pino';
import type { AgentTransport } from '../media/index.js';
import type { SipDirectory } from '../../kernel/ports/sip-directory.js';
import type { DigestChallenger } from './auth/digest.js';
import type { SipCall } from './dialog/sip-call.js';
import type { SessionTimerSettings } from './dialog/session-timer.js';
import type { PromptSpeaker } from './prompts/speech-prompts.js';
import type { SipRequest, SipResponse } from './message/sip-message.js';
import type { MediaClock } from './rtp/media-clock.js';
import type { ClientTransactions } from './transaction/client-transactions.js';
import type { SipPeer } from './transport/sip-transport.js';

/** What the endpoint's parts (inbound INVITEs, in-dialog requests, outbound calls) share. */
export interface EndpointContext {
  directory: SipDirectory;
  transport: AgentTransport;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  digest: DigestChallenger;
  clock: MediaClock;
  client: ClientTransactions;
  /** The address written into Contact, Via and SDP. */
  advertisedAddress: string;
  /** The address RTP sockets bind to. */
  bindAddress: string;
  port: number;
  /** Speaks prompts (the PIN's); absent = none (the PIN is keyed in silence). */
  prompts: PromptSpeaker | undefined;
  /** Session timer settings (RFC 4028). */
  sessionTimer: SessionTimerSettings;
  /** Live calls by SIP Call-ID. */
  calls: Map<string, SipCall>;
  /** Our Contact for a dialog over `protocol`; `secure` when the dialog's URI is `sips:` (a `sips:` Contact over TLS). */
  contact(protocol: SipPeer['protocol'], secure?: boolean): string;
  /** `host:port` for Via headers over `protocol` (TLS has its own port). */
  sentBy(protocol: SipPeer['protocol']): string;
  /** Sends a message outside any transaction (the ACK of a 2xx). */
  sendStateless(request: SipRequest, peer: SipPeer): void;
  /** A call ended: its bookkeeping goes. */
  callEnded(call: SipCall): void;
}

export type SendRequest = (request: SipRequest, peer: SipPeer) => Promise<SipResponse>;
