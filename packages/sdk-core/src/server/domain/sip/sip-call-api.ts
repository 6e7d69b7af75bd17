import { CreateSIPParticipantRequest, SIPParticipantInfo, TransferSIPParticipantRequest, type SIPOutboundConfig } from '@livekit/protocol';
import { SIP_PHONE_NUMBER_ATTRIBUTE, SIP_TRUNK_ID_ATTRIBUTE, SIP_TRUNK_NUMBER_ATTRIBUTE } from '../../../contract/wire.js';
import { ApiError } from '../../../errors/api-error.js';
import { SipCallFailed } from '../../kernel/ports/sip-calls.js';
import type { OutboundTrunk, SipDirectory } from '../../kernel/ports/sip-directory.js';
import { NO_ENDPOINT, type RoutedSipCalls } from './routed-sip-calls.js';
import { outboundTransportOf } from './sip-directory.js';
import { demand, type RequestJson, type TwirpCode, TwirpFailure } from './twirp-wire.js';

const parse = { ignoreUnknownFields: true } as const;

/** LiveKit's default ringing time for an outbound call, and the longest call when none is given. */
const DEFAULT_RINGING_MS = 30_000;
const DEFAULT_MAX_CALL_MS = 24 * 3600_000;

/**
 * `CreateSIPParticipant` and `TransferSIPParticipant` through the platform's SIP endpoint (the `SipCalls` port):
 * the outbound trunk must be the project's; a call that is not answered fails with the SIP status in the error's
 * `meta` (`sip_status_code`, `sip_status`), which `livekit-server-sdk` turns into a `SipCallError`.
 */
export class SipCallApi {
  constructor(
    private readonly directory: SipDirectory,
    private readonly calls: RoutedSipCalls,
  ) {}

  async create(project: string, json: RequestJson): Promise<SIPParticipantInfo> {
    const request = CreateSIPParticipantRequest.fromJson(json, parse);
    demand(request.sipTrunkId || request.trunk, 'sip_trunk_id or an inline trunk (trunk.hostname) is required');
    demand(!(request.sipTrunkId && request.trunk), 'give either sip_trunk_id or an inline trunk, not both');
    demand(request.sipCallTo, 'sip_call_to is required');
    demand(request.roomName, 'room_name is required');
    const trunk = request.trunk ? inlineTrunk(project, request.trunk) : await this.directory.outboundTrunk(request.sipTrunkId);
    if (!trunk || trunk.project !== project) throw new TwirpFailure('not_found', `outbound SIP trunk '${request.sipTrunkId}' not found`);
    if (!this.calls.local) throw new TwirpFailure('unavailable', NO_ENDPOINT);
    const number = request.sipNumber || trunk.number;
    const attributes = {
      ...request.participantAttributes,
      ...(trunk.trunkId ? { [SIP_TRUNK_ID_ATTRIBUTE]: trunk.trunkId } : {}),
      ...(request.hidePhoneNumber ? {} : { [SIP_PHONE_NUMBER_ATTRIBUTE]: request.sipCallTo, [SIP_TRUNK_NUMBER_ATTRIBUTE]: number }),
    };
    const identity = request.participantIdentity || `sip_${request.sipCallTo}`;
    const placed = await failedCall(() =>
      this.calls.placeCall({
        trunk: { ...trunk, number },
        callTo: request.sipCallTo,
        roomName: request.roomName,
        participantIdentity: identity,
        participantName: request.participantName || request.displayName || `Phone ${request.sipCallTo}`,
        participantMetadata: request.participantMetadata,
        participantAttributes: attributes,
        dtmf: request.dtmf,
        waitUntilAnswered: request.waitUntilAnswered,
        headers: { ...trunk.headers, ...request.headers },
        ringingTimeoutMs: durationMs(request.ringingTimeout) ?? DEFAULT_RINGING_MS,
        maxCallDurationMs: durationMs(request.maxCallDuration) ?? DEFAULT_MAX_CALL_MS,
        human: request.sipCallTo,
      }),
    );
    return new SIPParticipantInfo(placed);
  }

  async transfer(json: RequestJson): Promise<Record<string, never>> {
    const request = TransferSIPParticipantRequest.fromJson(json, parse);
    demand(request.roomName, 'room_name is required');
    demand(request.participantIdentity, 'participant_identity is required');
    demand(/^(tel|sips?):/i.test(request.transferTo), "transfer_to must be a 'tel:' or 'sip:' URI");
    await failedCall(() =>
      this.calls.transfer({
        roomName: request.roomName,
        participantIdentity: request.participantIdentity,
        transferTo: request.transferTo,
        playDialtone: request.playDialtone,
      }),
    );
    return {};
  }
}

/**
 * LiveKit's inline trunk (`CreateSIPParticipantRequest.trunk`, a `SIPOutboundConfig`): the provider's address,
 * transport and digest credentials given with the call instead of a stored trunk's id. The call comes from
 * `sip_number`; it has no trunk id (no `sip.trunkID` attribute), and its custom headers are the request's.
 */
function inlineTrunk(project: string, config: SIPOutboundConfig): OutboundTrunk {
  const address = config.hostname.trim();
  demand(address, 'trunk.hostname is required: the SIP address of the provider (host or host:port)');
  demand(!/[\s;<>@]/.test(address), `trunk.hostname '${address}' is not a SIP host (host or host:port)`);
  return {
    trunkId: '',
    project,
    address,
    transport: outboundTransportOf(config.transport),
    number: '',
    authUsername: config.authUsername,
    authPassword: config.authPassword,
    headers: {},
  };
}

/**
 * A call's SIP failure as LiveKit answers it: a Twirp code by the SIP status, the status itself in `meta`; a call held
 * by an instance that did not answer is `unavailable`.
 */
async function failedCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Another instance holding the call did not answer, or there is no endpoint anywhere.
    if (ApiError.isInstance(error)) throw new TwirpFailure('unavailable', error.message);
    if (!(error instanceof SipCallFailed)) throw error;
    const code: TwirpCode = [404, 410, 484, 604].includes(error.sipStatus)
      ? 'not_found'
      : [408, 480, 487].includes(error.sipStatus)
        ? 'deadline_exceeded'
        : 'unavailable';
    throw new TwirpFailure(code, error.message, { sip_status_code: String(error.sipStatus), sip_status: error.sipReason });
  }
}

function durationMs(duration: { seconds: bigint; nanos: number } | undefined): number | undefined {
  if (!duration) return undefined;
  const ms = Number(duration.seconds) * 1000 + Math.round(duration.nanos / 1e6);
  return ms > 0 ? ms : undefined;
}
