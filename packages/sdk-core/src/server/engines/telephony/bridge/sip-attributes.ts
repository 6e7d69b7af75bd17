import { randomBytes } from 'node:crypto';
import {
  SIP_CALL_ID_ATTRIBUTE,
  SIP_CALL_STATUS_ATTRIBUTE,
  SIP_PHONE_NUMBER_ATTRIBUTE,
  SIP_RULE_ID_ATTRIBUTE,
  SIP_TRUNK_ID_ATTRIBUTE,
  SIP_TRUNK_NUMBER_ATTRIBUTE,
} from '../../../../contract/wire.js';

export interface CallAttributes {
  /** The SIP Call-ID (`sip.callIDFull`). */
  sipCallId: string;
  status: 'dialing' | 'active';
  /** The number outside: the caller inbound, the callee outbound. */
  phoneNumber: string;
  trunkNumber: string;
  trunkId: string;
  /** The dispatch rule (inbound calls). */
  ruleId?: string;
  /** The route's or request's own attributes, which win. */
  extra: Record<string, string>;
}

/** A SIP participant's attributes as LiveKit SIP sets them (`sip.callID` is the platform's `SCL_` id of the call). */
export function sipAttributes(call: CallAttributes): Record<string, string> {
  return {
    [SIP_CALL_ID_ATTRIBUTE]: `SCL_${randomBytes(6).toString('hex')}`,
    'sip.callIDFull': call.sipCallId,
    [SIP_CALL_STATUS_ATTRIBUTE]: call.status,
    [SIP_PHONE_NUMBER_ATTRIBUTE]: call.phoneNumber,
    [SIP_TRUNK_NUMBER_ATTRIBUTE]: call.trunkNumber,
    [SIP_TRUNK_ID_ATTRIBUTE]: call.trunkId,
    ...(call.ruleId !== undefined ? { [SIP_RULE_ID_ATTRIBUTE]: call.ruleId } : {}),
    ...call.extra,
  };
}
