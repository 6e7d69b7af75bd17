import {
  CreateSIPDispatchRuleRequest,
  CreateSIPInboundTrunkRequest,
  CreateSIPOutboundTrunkRequest,
  CreateSIPParticipantRequest,
  DeleteSIPDispatchRuleRequest,
  DeleteSIPTrunkRequest,
  GetSIPInboundTrunkRequest,
  GetSIPInboundTrunkResponse,
  GetSIPOutboundTrunkRequest,
  GetSIPOutboundTrunkResponse,
  ListSIPDispatchRuleRequest,
  ListSIPDispatchRuleResponse,
  ListSIPInboundTrunkRequest,
  ListSIPInboundTrunkResponse,
  ListSIPOutboundTrunkRequest,
  ListSIPOutboundTrunkResponse,
  SIPDispatchRuleInfo,
  SIPInboundTrunkInfo,
  SIPOutboundTrunkInfo,
  TransferSIPParticipantRequest,
  UpdateSIPDispatchRuleRequest,
  UpdateSIPInboundTrunkRequest,
  UpdateSIPOutboundTrunkRequest,
} from '@livekit/protocol';
import type { SipClient } from 'livekit-server-sdk';
import type { TwirpAnswer } from '../../engines/media/index.js';
import { palaverAnswerOf } from './call-answer.js';
import { bearerToken, parseBody, type RequestJson, TwirpFailure, twirpOk, type TwirpResult } from './twirp-wire.js';

const parse = { ignoreUnknownFields: true } as const;
type Forward = (client: SipClient, json: RequestJson) => Promise<TwirpResult>;

const seconds = (duration: { seconds: bigint } | undefined): number | undefined => (duration ? Number(duration.seconds) : undefined);
const missing = (what: string, id: string) => new TwirpFailure('not_found', `${what} '${id}' not found`);

/** Each `livekit.SIP` method as `livekit-server-sdk`'s `SipClient` calls it on the deployment. */
const FORWARDS: Record<string, Forward> = {
  CreateSIPInboundTrunk: (client, json) => {
    const trunk = CreateSIPInboundTrunkRequest.fromJson(json, parse).trunk ?? new SIPInboundTrunkInfo();
    return client.createSipInboundTrunk(trunk.name, trunk.numbers, { ...trunk, ringingTimeout: seconds(trunk.ringingTimeout) });
  },
  CreateSIPOutboundTrunk: (client, json) => {
    const trunk = CreateSIPOutboundTrunkRequest.fromJson(json, parse).trunk ?? new SIPOutboundTrunkInfo();
    return client.createSipOutboundTrunk(trunk.name, trunk.address, trunk.numbers, trunk);
  },
  GetSIPInboundTrunk: async (client, json) => {
    const { sipTrunkId } = GetSIPInboundTrunkRequest.fromJson(json, parse);
    const [trunk] = await client.listSipInboundTrunk({ trunkIds: [sipTrunkId] });
    if (!trunk) throw missing('SIP trunk', sipTrunkId);
    return new GetSIPInboundTrunkResponse({ trunk });
  },
  GetSIPOutboundTrunk: async (client, json) => {
    const { sipTrunkId } = GetSIPOutboundTrunkRequest.fromJson(json, parse);
    const [trunk] = await client.listSipOutboundTrunk({ trunkIds: [sipTrunkId] });
    if (!trunk) throw missing('SIP trunk', sipTrunkId);
    return new GetSIPOutboundTrunkResponse({ trunk });
  },
  ListSIPInboundTrunk: async (client, json) =>
    new ListSIPInboundTrunkResponse({ items: await client.listSipInboundTrunk(ListSIPInboundTrunkRequest.fromJson(json, parse)) }),
  ListSIPOutboundTrunk: async (client, json) =>
    new ListSIPOutboundTrunkResponse({ items: await client.listSipOutboundTrunk(ListSIPOutboundTrunkRequest.fromJson(json, parse)) }),
  UpdateSIPInboundTrunk: (client, json) => {
    const { sipTrunkId, action } = UpdateSIPInboundTrunkRequest.fromJson(json, parse);
    if (action.case === 'replace') return client.updateSipInboundTrunk(sipTrunkId, action.value);
    return client.updateSipInboundTrunkFields(sipTrunkId, action.value ?? {});
  },
  UpdateSIPOutboundTrunk: (client, json) => {
    const { sipTrunkId, action } = UpdateSIPOutboundTrunkRequest.fromJson(json, parse);
    if (action.case === 'replace') return client.updateSipOutboundTrunk(sipTrunkId, action.value);
    return client.updateSipOutboundTrunkFields(sipTrunkId, action.value ?? {});
  },
  DeleteSIPTrunk: (client, json) => client.deleteSipTrunk(DeleteSIPTrunkRequest.fromJson(json, parse).sipTrunkId),
  CreateSIPDispatchRule: (client, json) => createRule(client, CreateSIPDispatchRuleRequest.fromJson(json, parse)),
  ListSIPDispatchRule: async (client, json) =>
    new ListSIPDispatchRuleResponse({ items: await client.listSipDispatchRule(ListSIPDispatchRuleRequest.fromJson(json, parse)) }),
  UpdateSIPDispatchRule: (client, json) => {
    const { sipDispatchRuleId, action } = UpdateSIPDispatchRuleRequest.fromJson(json, parse);
    if (action.case === 'replace') {
      assertRoomPerCall(action.value);
      return client.updateSipDispatchRule(sipDispatchRuleId, action.value);
    }
    return client.updateSipDispatchRuleFields(sipDispatchRuleId, action.value ?? {});
  },
  DeleteSIPDispatchRule: (client, json) => client.deleteSipDispatchRule(DeleteSIPDispatchRuleRequest.fromJson(json, parse).sipDispatchRuleId),
  CreateSIPParticipant: (client, json) => {
    const request = CreateSIPParticipantRequest.fromJson(json, parse);
    return client.createSipParticipant(
      request.sipTrunkId,
      request.sipCallTo,
      request.roomName,
      { ...request, fromNumber: request.sipNumber, ringingTimeout: seconds(request.ringingTimeout), maxCallDuration: seconds(request.maxCallDuration) },
      request.trunk,
    );
  },
  TransferSIPParticipant: async (client, json) => {
    const request = TransferSIPParticipantRequest.fromJson(json, parse);
    await client.transferSipParticipant(request.roomName, request.participantIdentity, request.transferTo, {
      playDialtone: request.playDialtone,
      headers: request.headers,
      ringingTimeout: seconds(request.ringingTimeout),
    });
    return {};
  },
};

/** A rule in `SipClient`'s shape (its kind, then the rest as options). */
function createRule(client: SipClient, request: CreateSIPDispatchRuleRequest): Promise<SIPDispatchRuleInfo> {
  const info = request.dispatchRule ?? new SIPDispatchRuleInfo({ ...request, sipDispatchRuleId: '' });
  const kind = info.rule?.rule;
  const rule =
    kind?.case === 'dispatchRuleDirect'
      ? { type: 'direct' as const, roomName: kind.value.roomName, pin: kind.value.pin }
      : kind?.case === 'dispatchRuleCallee'
        ? { type: 'callee' as const, roomPrefix: kind.value.roomPrefix, pin: kind.value.pin, randomize: kind.value.randomize }
        : kind?.case === 'dispatchRuleIndividual'
          ? { type: 'individual' as const, roomPrefix: kind.value.roomPrefix, pin: kind.value.pin }
          : undefined;
  if (!rule) throw new TwirpFailure('invalid_argument', 'rule is required: dispatch_rule_direct, dispatch_rule_individual or dispatch_rule_callee');
  assertRoomPerCall(info);
  return client.createSipDispatchRule(rule, info);
}

/**
 * A rule's `palaver` answer must be one, and a rule whose answer the platform starts from the deployment's webhooks needs a room per call: the
 * session or run answering is named after the room LiveKit SIP chose (`ForwardedCallAnswers`), and a room a second
 * call reuses would find it taken. LiveKit names a room per call for `individual` rules (unless `no_randomness`) and
 * `callee` rules with `randomize`.
 */
function assertRoomPerCall(info: SIPDispatchRuleInfo): void {
  const palaver = palaverAnswerOf(info.metadata);
  // LiveKit keeps metadata as it is: the platform, which reads the answer, checks it.
  if (typeof palaver === 'string') throw new TwirpFailure('invalid_argument', `the rule's palaver answer is invalid: ${palaver}`);
  if (!palaver || (!palaver.realtime && !palaver.app_run)) return;
  const kind = info.rule?.rule;
  const perCall = (kind?.case === 'dispatchRuleIndividual' && !kind.value.noRandomness) || (kind?.case === 'dispatchRuleCallee' && kind.value.randomize);
  if (!perCall)
    throw new TwirpFailure(
      'invalid_argument',
      'with a LiveKit deployment a palaver answer needs a room per call: use dispatch_rule_individual (without no_randomness) or dispatch_rule_callee with randomize',
    );
}

/**
 * The `livekit.SIP` service with a LiveKit deployment configured (`LIVEKIT_URL`): every call goes to the deployment's
 * SIP service through `livekit-server-sdk`'s `SipClient`, carrying the caller's own token (the deployment checks its
 * grants), and its answer or error comes back as it was; the deployment unreachable is `unavailable`.
 *
 * @example
 * const answer = await forwardSipCall('https://lk.example.com', 'ListSIPInboundTrunk', '{}', 'Bearer eyJ...');
 */
export async function forwardSipCall(url: string, method: string, body: string, authorization: string | undefined): Promise<TwirpAnswer> {
  const forward = FORWARDS[method];
  if (!forward) return new TwirpFailure('bad_route', `livekit.SIP/${method} is not a method of the SIP service`).answer();
  const { SipClient, TwirpError } = await import('livekit-server-sdk');
  try {
    const token = bearerToken(authorization);
    const json = parseBody(body);
    const result = await forward(new SipClient(url, undefined, undefined, { token }), json);
    return twirpOk(result);
  } catch (error) {
    if (error instanceof TwirpFailure) return error.answer();
    if (error instanceof TwirpError)
      return { status: error.status, body: { code: error.code ?? 'unknown', msg: error.message, ...(error.metadata ? { meta: error.metadata } : {}) } };
    if (error instanceof Error && /^cannot decode /.test(error.message)) return new TwirpFailure('malformed', `invalid request: ${error.message}`).answer();
    return new TwirpFailure('unavailable', `the LiveKit deployment's SIP service did not answer: ${(error as Error).message}`).answer();
  }
}
