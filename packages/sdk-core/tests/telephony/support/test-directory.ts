import type {
  InboundCallIdentity,
  InboundCallRoute,
  InboundTrunkMatch,
  SipDirectory,
  SipTrunkCredentials,
} from '../../../src/server/kernel/ports/sip-directory.js';

/** Numbers the test directory knows. */
export const OPEN_NUMBER = '+15550000';
export const AUTH_NUMBER = '+15550001';
export const REFUSED_ADDRESS_NUMBER = '+15550002';
/** Its dispatch takes 2 s (a slow database): time for a CANCEL. */
export const SLOW_NUMBER = '+15550003';
/** Its rule asks for a PIN. */
export const PIN_NUMBER = '+15550004';
export const PIN = '1234';
export const AUTH = { username: 'trunk-user', password: 'trunk-secret' };

/**
 * The SIP service as the endpoint sees it (the directory port is the endpoint's boundary): three trunks, one
 * room per caller. `routed` lists every call it routed.
 */
export function testDirectory(): SipDirectory & { routed: InboundCallRoute[] } {
  const routed: InboundCallRoute[] = [];
  const trunk = (trunkId: string, auth = { username: '', password: '' }): SipTrunkCredentials => ({
    trunkId,
    project: 'prj_test',
    authUsername: auth.username,
    authPassword: auth.password,
  });
  return {
    routed,
    async findInboundTrunk(call: InboundCallIdentity): Promise<InboundTrunkMatch | undefined> {
      if (call.toUser === OPEN_NUMBER || call.toUser === SLOW_NUMBER || call.toUser === PIN_NUMBER) return { kind: 'trunk', trunk: trunk('ST_open') };
      if (call.toUser === AUTH_NUMBER) return { kind: 'trunk', trunk: trunk('ST_auth', AUTH) };
      if (call.toUser === REFUSED_ADDRESS_NUMBER) return { kind: 'address-refused', trunkId: 'ST_elsewhere' };
      return undefined;
    },
    async dispatch(call: InboundCallIdentity, credentials: SipTrunkCredentials): Promise<InboundCallRoute> {
      if (call.toUser === SLOW_NUMBER) await new Promise((resolve) => setTimeout(resolve, 2000));
      const route: InboundCallRoute = {
        ruleId: 'SDR_test',
        project: credentials.project,
        roomName: `call-${call.callId.replace(/[^A-Za-z0-9_-]/g, '')}`,
        participantIdentity: `sip_${call.fromUser}`,
        participantName: `Phone ${call.fromUser}`,
        participantMetadata: '',
        participantAttributes: {},
        human: call.fromUser,
        pin: call.toUser === PIN_NUMBER ? PIN : '',
        answer: undefined,
      };
      routed.push(route);
      return route;
    },
    async outboundTrunk() {
      return undefined;
    },
  };
}
