import { SIPDispatchRule, SIPDispatchRuleInfo } from '@livekit/protocol';
import { describe, expect, it } from 'vitest';
import { callerParticipant, dispatchRuleConflict, selectDispatchRule } from './dispatch-rules.js';

const direct = (id: string, room: string, pin = '', fields: Partial<SIPDispatchRuleInfo> = {}) =>
  new SIPDispatchRuleInfo({
    sipDispatchRuleId: id,
    rule: new SIPDispatchRule({ rule: { case: 'dispatchRuleDirect', value: { roomName: room, pin } } }),
    ...fields,
  });
const individual = (id: string, prefix: string, fields: Partial<SIPDispatchRuleInfo> = {}) =>
  new SIPDispatchRuleInfo({
    sipDispatchRuleId: id,
    rule: new SIPDispatchRule({ rule: { case: 'dispatchRuleIndividual', value: { roomPrefix: prefix, pin: '' } } }),
    ...fields,
  });
const callee = (id: string, prefix: string, randomize: boolean) =>
  new SIPDispatchRuleInfo({
    sipDispatchRuleId: id,
    rule: new SIPDispatchRule({ rule: { case: 'dispatchRuleCallee', value: { roomPrefix: prefix, pin: '', randomize } } }),
  });
const call = { callId: 'SCL_1', fromUser: '+15557777', toUser: '+15550100' };

describe('dispatch rules (LiveKit rules)', () => {
  it('prefers rules naming the trunk to rules for every trunk', () => {
    const rules = [direct('SDR_any', 'lobby'), individual('SDR_trunk', 'call', { trunkIds: ['ST_1'] })];
    expect(selectDispatchRule(rules, 'ST_1', call)?.sipDispatchRuleId).toBe('SDR_trunk');
    expect(selectDispatchRule(rules, 'ST_2', call)?.sipDispatchRuleId).toBe('SDR_any');
  });

  it('prefers PIN-protected, then direct over individual over callee, then rules limited to the caller', () => {
    expect(selectDispatchRule([individual('SDR_i', 'call'), direct('SDR_d', 'desk')], 'ST_1', call)?.sipDispatchRuleId).toBe('SDR_d');
    expect(selectDispatchRule([direct('SDR_d', 'desk'), direct('SDR_pin', 'vault', '42')], 'ST_1', call)?.sipDispatchRuleId).toBe('SDR_pin');
    expect(
      selectDispatchRule([direct('SDR_d', 'desk'), individual('SDR_mine', 'vip', { inboundNumbers: ['15557777'] })], 'ST_1', call)?.sipDispatchRuleId,
    ).toBe('SDR_mine');
    expect(selectDispatchRule([individual('SDR_other', 'vip', { inboundNumbers: ['+1'] })], 'ST_1', call)).toBeUndefined();
  });

  it('names rooms and participants as LiveKit SIP does', () => {
    expect(callerParticipant(individual('SDR_i', 'call'), 'ST_1', call).roomName).toMatch(/^call_\+15557777_\w{12}$/);
    expect(callerParticipant(direct('SDR_d', 'desk', '1234'), 'ST_1', call)).toMatchObject({
      roomName: 'desk',
      pin: '1234',
      identity: 'sip_+15557777',
      name: 'Phone +15557777',
    });
    expect(callerParticipant(callee('SDR_c', 'line', false), 'ST_1', call).roomName).toBe('line_+15550100');
    expect(callerParticipant(callee('SDR_c', 'line', true), 'ST_1', call).roomName).toMatch(/^line_\+15550100_\w{12}$/);
  });

  it('hides the number when the rule says so: hashed identity, last four digits, no number attributes', () => {
    const hidden = callerParticipant(individual('SDR_h', 'call', { hidePhoneNumber: true, attributes: { team: 'a' } }), 'ST_1', call);
    expect(hidden.identity).toMatch(/^sip_[0-9a-f]{16}$/);
    expect(hidden.name).toBe('Phone 7777');
    expect(hidden.attributes).toEqual({ team: 'a', 'sip.callID': 'SCL_1', 'sip.trunkID': 'ST_1', 'sip.ruleID': 'SDR_h', 'sip.callStatus': 'active' });
  });

  it('refuses two rules for the same trunk, caller and PIN', () => {
    expect(dispatchRuleConflict([direct('SDR_a', 'x'), individual('SDR_b', 'y')])).toContain('Conflicting SIP Dispatch Rules');
    expect(dispatchRuleConflict([direct('SDR_a', 'x'), direct('SDR_b', 'y', '12')])).toBeUndefined();
    expect(dispatchRuleConflict([direct('SDR_a', 'x', '', { trunkIds: ['ST_1'] }), direct('SDR_b', 'y', '', { trunkIds: ['ST_2'] })])).toBeUndefined();
  });
});
