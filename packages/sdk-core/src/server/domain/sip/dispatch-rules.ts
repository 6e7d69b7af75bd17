import { createHash, randomBytes } from 'node:crypto';
import type { SIPDispatchRuleInfo } from '@livekit/protocol';
import {
  SIP_CALL_ID_ATTRIBUTE,
  SIP_CALL_STATUS_ATTRIBUTE,
  SIP_PHONE_NUMBER_ATTRIBUTE,
  SIP_RULE_ID_ATTRIBUTE,
  SIP_TRUNK_ID_ATTRIBUTE,
  SIP_TRUNK_NUMBER_ATTRIBUTE,
} from '../../../contract/wire.js';
import { normalizeNumber, numberAllowed } from './trunk-matching.js';

/** The room name or prefix and the PIN of a rule; undefined for a rule of a kind the platform does not serve. */
export function roomAndPin(rule: SIPDispatchRuleInfo): { room: string; pin: string } | undefined {
  const kind = rule.rule?.rule;
  switch (kind?.case) {
    case 'dispatchRuleDirect':
      return { room: kind.value.roomName, pin: kind.value.pin };
    case 'dispatchRuleIndividual':
      return { room: kind.value.roomPrefix, pin: kind.value.pin };
    case 'dispatchRuleCallee':
      return { room: kind.value.roomPrefix, pin: kind.value.pin };
    default:
      return undefined;
  }
}

/**
 * LiveKit's order of preference (lower first): PIN-protected rules before open ones; direct, then individual, then
 * callee; a rule limited to some callers before one for every caller.
 */
export function rulePriority(rule: SIPDispatchRuleInfo): number {
  const kind = rule.rule?.rule.case;
  if (kind === undefined) return Number.MAX_SAFE_INTEGER;
  const base = { dispatchRuleDirect: 0, dispatchRuleIndividual: 1, dispatchRuleCallee: 2 }[kind];
  const pin = roomAndPin(rule)?.pin ?? '';
  return base + (pin ? 0 : 100) + (rule.inboundNumbers.length === 0 ? 1000 : 0);
}

/**
 * The conflict LiveKit refuses when a rule is created or changed: two rules of a project for the same trunk (or
 * both every trunk), the same caller (or both every caller) and the same PIN. Undefined when there is none.
 */
export function dispatchRuleConflict(rules: readonly SIPDispatchRuleInfo[]): string | undefined {
  const seen = new Map<string, SIPDispatchRuleInfo>();
  for (const rule of rules) {
    const pin = roomAndPin(rule)?.pin ?? '';
    for (const trunk of rule.trunkIds.length === 0 ? [''] : rule.trunkIds) {
      for (const number of rule.inboundNumbers.length === 0 ? [''] : rule.inboundNumbers.map(normalizeNumber)) {
        const key = `${pin}\u0000${trunk}\u0000${number}`;
        const other = seen.get(key);
        if (other && other.sipDispatchRuleId !== rule.sipDispatchRuleId) {
          return `Conflicting SIP Dispatch Rules: same Trunk+Number+PIN combination for "${rule.sipDispatchRuleId || '<new>'}" and "${other.sipDispatchRuleId || '<new>'}"`;
        }
        seen.set(key, rule);
      }
    }
  }
  return undefined;
}

/**
 * The rule an accepted call follows, as LiveKit selects it: rules naming the call's trunk are preferred to rules for
 * every trunk; among them, those accepting the caller (`inboundNumbers`) and the dialled number (`numbers`) in
 * {@link rulePriority} order, ties broken by room name. The caller has keyed in no PIN yet, so a PIN-protected rule
 * wins and the endpoint asks for its PIN.
 */
export function selectDispatchRule(
  rules: readonly SIPDispatchRuleInfo[],
  trunkId: string,
  call: { fromUser: string; toUser: string },
): SIPDispatchRuleInfo | undefined {
  const applicable = rules.filter(
    (rule) => roomAndPin(rule) !== undefined && numberAllowed(call.fromUser, rule.inboundNumbers) && numberAllowed(call.toUser, rule.numbers),
  );
  const best = (candidates: SIPDispatchRuleInfo[]) =>
    candidates.sort((a, b) => rulePriority(a) - rulePriority(b) || roomAndPin(a)!.room.localeCompare(roomAndPin(b)!.room))[0];
  return best(applicable.filter((rule) => rule.trunkIds.includes(trunkId))) ?? best(applicable.filter((rule) => rule.trunkIds.length === 0));
}

/** The caller's participant as LiveKit SIP names it: `sip_<number>`, `Phone <number>`, or hashed when hidden. */
export interface CallerParticipant {
  roomName: string;
  identity: string;
  name: string;
  metadata: string;
  attributes: Record<string, string>;
  pin: string;
}

/**
 * Where a call goes by its rule (LiveKit's evaluation): individual -> `<prefix>_<caller>_<random>`, direct -> the
 * rule's room, callee -> `<prefix>_<dialled>` (`_<random>` when randomized); the participant's attributes are the
 * rule's plus `sip.callID`, `sip.trunkID`, `sip.ruleID`, `sip.callStatus` and, unless the rule hides numbers,
 * `sip.phoneNumber` and `sip.trunkPhoneNumber`.
 */
export function callerParticipant(rule: SIPDispatchRuleInfo, trunkId: string, call: { callId: string; fromUser: string; toUser: string }): CallerParticipant {
  const { room, pin } = roomAndPin(rule)!;
  const attributes: Record<string, string> = { ...rule.attributes, [SIP_CALL_ID_ATTRIBUTE]: call.callId, [SIP_TRUNK_ID_ATTRIBUTE]: trunkId };
  let from = call.fromUser;
  let identity = `sip_${call.fromUser}`;
  if (rule.hidePhoneNumber) {
    identity = `sip_${createHash('sha256').update(call.fromUser).digest('hex').slice(0, 16)}`;
    from = from.slice(-(from.length <= 4 ? 1 : 4));
  } else {
    attributes[SIP_PHONE_NUMBER_ATTRIBUTE] = call.fromUser;
    attributes[SIP_TRUNK_NUMBER_ATTRIBUTE] = call.toUser;
  }
  attributes[SIP_RULE_ID_ATTRIBUTE] = rule.sipDispatchRuleId;
  attributes[SIP_CALL_STATUS_ATTRIBUTE] = 'active';
  const kind = rule.rule!.rule;
  let roomName = room;
  if (kind.case === 'dispatchRuleIndividual') roomName = `${room}_${from}_${randomSuffix()}`;
  else if (kind.case === 'dispatchRuleCallee') {
    roomName = room ? `${room}_${call.toUser}` : call.toUser;
    if (kind.value.randomize) roomName += `_${randomSuffix()}`;
  }
  return { roomName, identity, name: `Phone ${from}`, metadata: rule.metadata, attributes, pin };
}

/** Twelve random letters and digits, as LiveKit's room suffixes. */
function randomSuffix(): string {
  return randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
}
