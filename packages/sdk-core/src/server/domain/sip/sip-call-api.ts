import { CreateSIPParticipantRequest, SIPParticipantInfo, TransferSIPParticipantRequest } from '@livekit/protocol';
import { SIP_PHONE_NUMBER_ATTRIBUTE, SIP_TRUNK_ID_ATTRIBUTE, SIP_TRUNK_NUMBER_ATTRIBUTE } from '../../../contract/wire.js';
import { SipCallFailed, type SipCalls } from '../../kernel/ports/sip-calls.js';
import type { SipDirectory } from '../../kernel/ports/sip-directory.js';
import { demand, type RequestJson, type TwirpCode, TwirpFailure } from './twirp-wire.js';

const parse = { ignoreUnknownFields: true } as const;

/** LiveKit's default ringing time for an outbound call, and the longest call when none is given. */
const DEFAULT_RINGING_MS = 30_000;
const DEFAULT_MAX_CALL_MS = 24 * 3600_000;

/** Says why no call can be placed here; `unavailable` is what LiveKit answers without a SIP service. */
const NO_ENDPOINT =
  'no SIP endpoint runs on this server (set PALAVER_SIP_PORT to start one), and no LiveKit deployment is configured to place the call (LIVEKIT_URL)';

/**
 * `CreateSIPParticipant` and `TransferSIPParticipant` through the platform's SIP endpoint (the `SipCalls` port):
 * the outbound trunk must be the project's; a call that is not answered fails with the SIP status in the error's
 * `meta` (`sip_status_code`, `sip_status`), which `livekit-server-sdk` turns into a `SipCallError`.
 */
export class SipCallApi {
  constructor(
    private readonly directory: SipDirectory,
    private readonly calls: () => SipCalls | undefined,
  ) {}

  async create(project: string, json: RequestJson): Promise<SIPParticipantInfo> {
    const request = CreateSIPParticipantRequest.fromJson(json, parse);
    demand(!request.trunk, 'an inline trunk configuration is not served: create an outbound trunk and give its sip_trunk_id');
    demand(request.sipTrunkId, 'sip_trunk_id is required');
    demand(request.sipCallTo, 'sip_call_to is required');
    demand(request.roomName, 'room_name is required');
    const trunk = await this.directory.outboundTrunk(request.sipTrunkId);
    if (!trunk || trunk.project !== project) throw new TwirpFailure('not_found', `outbound SIP trunk '${request.sipTrunkId}' not found`);
    const calls = this.available();
    const number = request.sipNumber || trunk.number;
    const attributes = {
      ...request.participantAttributes,
      [SIP_TRUNK_ID_ATTRIBUTE]: trunk.trunkId,
      ...(request.hidePhoneNumber ? {} : { [SIP_PHONE_NUMBER_ATTRIBUTE]: request.sipCallTo, [SIP_TRUNK_NUMBER_ATTRIBUTE]: number }),
    };
    const identity = request.participantIdentity || `sip_${request.sipCallTo}`;
    const placed = await failedCall(() =>
      calls.placeCall({
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
    const calls = this.available();
    await failedCall(() =>
      calls.transfer({
        roomName: request.roomName,
        participantIdentity: request.participantIdentity,
        transferTo: request.transferTo,
        playDialtone: request.playDialtone,
      }),
    );
    return {};
  }

  private available(): SipCalls {
    const calls = this.calls();
    if (!calls) throw new TwirpFailure('unavailable', NO_ENDPOINT);
    return calls;
  }
}

/** A call's SIP failure as LiveKit answers it: a Twirp code by the SIP status, the status itself in `meta`. */
async function failedCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
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
