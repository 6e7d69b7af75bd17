import type { Logger } from 'pino';
import type { EventBus } from '../../kernel/event-bus.js';
import { SipCallFailed, type OutboundCallRequest, type PlacedCall, type SipCalls, type TransferRequest } from '../../kernel/ports/sip-calls.js';
import { HostedControl, HostUnavailableError } from '../hosted-control.js';

/** The participant a call is in its room: how any instance names a call it does not hold. */
export interface SipCallParticipant {
  roomName: string;
  participantIdentity: string;
}

type TransferCommand = { command: 'transfer' } & TransferRequest;
/** A transfer's outcome carried over the bus (JSON): done, or the SIP status it failed with. */
type TransferOutcome = { ok: true } | { ok: false; sipStatus: number; sipReason: string };

/** A transfer waits up to 30 s for the transferee's NOTIFY on the holding instance; the asking one waits a little longer. */
const TRANSFER_REPLY_MS = 40_000;

const ENDED_EARLY_MAX = 1000;

/** Says why no call can be placed here; `unavailable` is what LiveKit answers without a SIP service. */
export const NO_ENDPOINT =
  'no SIP endpoint runs on this server (set PALAVER_SIP_PORT to start one), and no LiveKit deployment is configured to place the call (LIVEKIT_URL)';

/**
 * The calls of every instance's SIP endpoint, as the SIP service places and transfers them (issue 32, decision 0109):
 * each answered or placed call is hosted by the instance whose endpoint holds it (a {@link HostedControl} named by
 * the call's room and participant), so a `TransferSIPParticipant` that lands on another instance of the same
 * database and bus reaches it; a call that ended is released. Placing a call needs this instance's own endpoint.
 *
 * @example
 * calls.use(endpoint);                                         // this instance's endpoint, once listening
 * await calls.hostCall({ roomName, participantIdentity });     // an inbound call was answered
 * await calls.transfer({ roomName, participantIdentity, transferTo: 'tel:+15550999', playDialtone: false }); // any instance
 * await calls.callEnded({ roomName, participantIdentity });    // the endpoint reports the end
 */
export class RoutedSipCalls implements SipCalls {
  private endpoint: SipCalls | undefined;
  private readonly control: HostedControl<SipCalls, TransferCommand, TransferOutcome>;
  /** Calls that ended while being hosted (the end raced the bus subscription): released once hosted. */
  private readonly endedEarly = new Set<string>();

  constructor(bus: EventBus, logger: Logger) {
    this.control = new HostedControl(
      bus,
      logger,
      {
        channel: 'sip.call',
        describe: (id) => `the SIP call of ${id}`,
        execute: async (endpoint, { command: _command, ...request }) => {
          try {
            await endpoint.transfer(request);
            return { ok: true };
          } catch (error) {
            if (error instanceof SipCallFailed) return { ok: false, sipStatus: error.sipStatus, sipReason: error.sipReason };
            throw error;
          }
        },
      },
      { replyTimeoutMs: TRANSFER_REPLY_MS },
    );
  }

  /** This instance's SIP endpoint (undefined: none runs here, or it stopped). */
  use(endpoint: SipCalls | undefined): void {
    this.endpoint = endpoint;
  }

  /** Whether this instance can place calls. */
  get local(): SipCalls | undefined {
    return this.endpoint;
  }

  async placeCall(request: OutboundCallRequest): Promise<PlacedCall> {
    const endpoint = this.endpoint;
    if (!endpoint) throw new HostUnavailableError(NO_ENDPOINT);
    const placed = await endpoint.placeCall(request);
    await this.hostCall({ roomName: placed.roomName, participantIdentity: placed.participantIdentity });
    return placed;
  }

  /** Hosts a call this instance's endpoint holds (answered inbound, or placed), so other instances reach it. */
  async hostCall(participant: SipCallParticipant): Promise<void> {
    const endpoint = this.endpoint;
    if (!endpoint) return;
    const id = keyOf(participant);
    this.endedEarly.delete(id);
    await this.control.host(id, endpoint, '');
    if (this.endedEarly.delete(id)) await this.control.release(id);
  }

  /** A call of this instance's endpoint ended: other instances no longer reach it here. */
  async callEnded(participant: SipCallParticipant): Promise<void> {
    const id = keyOf(participant);
    if (this.control.hosts(id)) return this.control.release(id);
    // Calls that ended before they were answered are never hosted: the set stays small.
    if (this.endedEarly.size >= ENDED_EARLY_MAX) this.endedEarly.clear();
    this.endedEarly.add(id);
  }

  /**
   * Transfers the call wherever it is held: here, or on the instance hosting it; a call no instance holds fails as
   * the endpoint answers it (481, no such call).
   */
  async transfer(request: TransferRequest): Promise<void> {
    const id = keyOf(request);
    if (!(await this.control.reachable(id))) {
      if (!this.endpoint) throw new HostUnavailableError(NO_ENDPOINT);
      throw new SipCallFailed(481, 'No active call for this participant');
    }
    const outcome = await this.control.send(id, { command: 'transfer', ...request });
    if (!outcome.ok) throw new SipCallFailed(outcome.sipStatus, outcome.sipReason);
  }

  /** Releases every bus subscription (shutdown). */
  close(): Promise<void> {
    this.endedEarly.clear();
    return this.control.close();
  }
}

/** A call's id on the bus: its room and participant, each encoded so no pair of names can collide. */
function keyOf(participant: SipCallParticipant): string {
  return `${encodeURIComponent(participant.roomName)}/${encodeURIComponent(participant.participantIdentity)}`;
}
