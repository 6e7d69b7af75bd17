import { SIPMediaEncryption, SIPTransport, type SIPMediaConfig } from '@livekit/protocol';
import type {
  InboundCallIdentity,
  InboundCallRoute,
  InboundTrunkMatch,
  OutboundTrunk,
  SipDirectory,
  SipMediaEncryption,
  SipTrunkCredentials,
} from '../../kernel/ports/sip-directory.js';
import { planAnswer } from './call-answer.js';
import { callerParticipant, selectDispatchRule } from './dispatch-rules.js';
import type { SipRepository } from './sip-repository.js';
import { matchInboundTrunk } from './trunk-matching.js';

/**
 * The SIP endpoint's view of the stored configuration (the `SipDirectory` port): every question reads the database,
 * so a trunk or rule made on any instance applies to the next call on every instance.
 *
 * @example
 * const match = await directory.findInboundTrunk({ callId, fromUser: '+15550100', fromHost, toUser: '+15550199', toHost, sourceAddress: '192.0.2.7' });
 */
export class StoredSipDirectory implements SipDirectory {
  constructor(
    private readonly repository: SipRepository,
    /** Starts and ends what answers a call (`SipService.answerCall`, `SipService.callEnded`). */
    private readonly answers: { answerCall(route: InboundCallRoute): Promise<unknown>; callEnded(route: InboundCallRoute): Promise<void> },
  ) {}

  async findInboundTrunk(call: InboundCallIdentity): Promise<InboundTrunkMatch | undefined> {
    const match = matchInboundTrunk(await this.repository.allInboundTrunks(), call);
    switch (match.kind) {
      case 'trunk':
        return { kind: 'trunk', trunk: credentialsOf(match.project, match.trunk) };
      case 'address-refused':
        return { kind: 'address-refused', trunkId: match.trunk.sipTrunkId };
      default:
        // No trunk, or two that claim the call (LiveKit refuses the call then too).
        return undefined;
    }
  }

  async dispatch(call: InboundCallIdentity, trunk: SipTrunkCredentials): Promise<InboundCallRoute | undefined> {
    const rule = selectDispatchRule(await this.repository.rules(trunk.project), trunk.trunkId, call);
    if (!rule) return undefined;
    const participant = callerParticipant(rule, trunk.trunkId, call);
    const plan = planAnswer(rule);
    return {
      ruleId: rule.sipDispatchRuleId,
      project: trunk.project,
      roomName: plan.room ?? participant.roomName,
      participantIdentity: participant.identity,
      participantName: participant.name,
      participantMetadata: participant.metadata,
      participantAttributes: participant.attributes,
      human: plan.human ?? call.fromUser,
      pin: participant.pin,
      answer: plan.answer,
    };
  }

  async answer(route: InboundCallRoute): Promise<void> {
    await this.answers.answerCall(route);
  }

  callEnded(route: InboundCallRoute): Promise<void> {
    return this.answers.callEnded(route);
  }

  async outboundTrunk(trunkId: string): Promise<OutboundTrunk | undefined> {
    const stored = await this.repository.trunk(trunkId);
    if (stored?.direction !== 'outbound') return undefined;
    const { trunk } = stored;
    return {
      trunkId: trunk.sipTrunkId,
      project: stored.project,
      address: trunk.address,
      transport: outboundTransportOf(trunk.transport),
      number: trunk.numbers[0] ?? '',
      authUsername: trunk.authUsername,
      authPassword: trunk.authPassword,
      headers: { ...trunk.headers },
      mediaEncryption: encryptionOf(trunk),
    };
  }
}

/** The transport the endpoint dials a trunk with: TCP or TLS when asked for, UDP otherwise (`AUTO` included). */
export function outboundTransportOf(transport: SIPTransport): OutboundTrunk['transport'] {
  if (transport === SIPTransport.SIP_TRANSPORT_TLS) return 'tls';
  return transport === SIPTransport.SIP_TRANSPORT_TCP ? 'tcp' : 'udp';
}

function credentialsOf(project: string, trunk: { sipTrunkId: string; authUsername: string; authPassword: string } & EncryptionFields): SipTrunkCredentials {
  return { trunkId: trunk.sipTrunkId, project, authUsername: trunk.authUsername, authPassword: trunk.authPassword, mediaEncryption: encryptionOf(trunk) };
}

interface EncryptionFields {
  mediaEncryption: SIPMediaEncryption;
  media?: SIPMediaConfig;
}

/** A trunk's SRTP setting: `media.encryption` when set, else the deprecated `media_encryption` (as LiveKit reads them). */
function encryptionOf(trunk: EncryptionFields): SipMediaEncryption {
  switch (trunk.media?.encryption ?? trunk.mediaEncryption) {
    case SIPMediaEncryption.SIP_MEDIA_ENCRYPT_REQUIRE:
      return 'required';
    case SIPMediaEncryption.SIP_MEDIA_ENCRYPT_ALLOW:
      return 'allowed';
    default:
      return 'disabled';
  }
}
