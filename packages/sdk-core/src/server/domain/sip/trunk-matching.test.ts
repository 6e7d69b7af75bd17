import { SIPInboundTrunkInfo } from '@livekit/protocol';
import { describe, expect, it } from 'vitest';
import { addressAllowed, inboundTrunkConflict, matchInboundTrunk, numberAllowed } from './trunk-matching.js';

const trunk = (id: string, fields: Partial<SIPInboundTrunkInfo> = {}) => ({ project: 'p1', trunk: new SIPInboundTrunkInfo({ sipTrunkId: id, ...fields }) });
const call = { fromUser: '+15557777', toUser: '+15550100', sourceAddress: '192.0.2.10' };

describe('inbound trunk matching (LiveKit rules)', () => {
  it('compares numbers as E.164, with or without the plus', () => {
    expect(numberAllowed('15550100', ['+15550100'])).toBe(true);
    expect(numberAllowed('+15550100', ['15550100'])).toBe(true);
    expect(numberAllowed('+15550101', ['+15550100'])).toBe(false);
    expect(numberAllowed('anything', [])).toBe(true);
  });

  it('allows addresses by IP and CIDR, IPv4 and IPv6, IPv4-mapped sources included; junk entries allow nothing', () => {
    expect(addressAllowed('192.0.2.10', ['192.0.2.0/24'])).toBe(true);
    expect(addressAllowed('192.0.3.10', ['192.0.2.0/24'])).toBe(false);
    expect(addressAllowed('::ffff:192.0.2.10', ['192.0.2.10'])).toBe(true);
    expect(addressAllowed('2001:db8::5', ['2001:db8::/32'])).toBe(true);
    expect(addressAllowed('2001:db9::5', ['2001:db8::/32'])).toBe(false);
    expect(addressAllowed('192.0.2.10', ['not-an-address', '192.0.2.0/33'])).toBe(false);
    expect(addressAllowed('192.0.2.10', [])).toBe(true);
  });

  it('prefers the trunk listing the dialled number over a default trunk', () => {
    const match = matchInboundTrunk([trunk('ST_default', { allowedAddresses: ['192.0.2.0/24'] }), trunk('ST_number', { numbers: ['15550100'] })], call);
    expect(match).toMatchObject({ kind: 'trunk', trunk: { sipTrunkId: 'ST_number' } });
    expect(matchInboundTrunk([trunk('ST_default', { allowedAddresses: ['192.0.2.0/24'] })], call)).toMatchObject({
      kind: 'trunk',
      trunk: { sipTrunkId: 'ST_default' },
    });
  });

  it('skips trunks whose allowed numbers refuse the caller', () => {
    const candidates = [
      trunk('ST_vip', { numbers: ['+15550100'], allowedNumbers: ['+15550001'] }),
      trunk('ST_all', { numbers: ['+15550100'], allowedNumbers: ['+15557777'] }),
    ];
    expect(matchInboundTrunk(candidates, call)).toMatchObject({ kind: 'trunk', trunk: { sipTrunkId: 'ST_all' } });
    expect(matchInboundTrunk(candidates, { ...call, fromUser: '+19999999' })).toEqual({ kind: 'none' });
  });

  it('says when only the source address refused the call', () => {
    const candidates = [trunk('ST_office', { numbers: ['+15550100'], allowedAddresses: ['198.51.100.0/24'] })];
    expect(matchInboundTrunk(candidates, call)).toMatchObject({ kind: 'address-refused', trunk: { sipTrunkId: 'ST_office' } });
    expect(matchInboundTrunk(candidates, { ...call, sourceAddress: '198.51.100.4' })).toMatchObject({ kind: 'trunk' });
    expect(matchInboundTrunk(candidates, { ...call, toUser: '+15550999' })).toEqual({ kind: 'none' });
  });

  it('reports two trunks claiming one call as a conflict, and refuses such trunks when saved', () => {
    const twins = [trunk('ST_a', { numbers: ['+15550100'] }), trunk('ST_b', { numbers: ['15550100'] })];
    expect(matchInboundTrunk(twins, call)).toMatchObject({ kind: 'conflict' });
    expect(inboundTrunkConflict(twins.map((entry) => entry.trunk))).toContain('Conflicting inbound SIP Trunks');
    const distinct = [trunk('ST_a', { numbers: ['+15550100'], allowedNumbers: ['+1'] }), trunk('ST_b', { numbers: ['+15550100'], allowedNumbers: ['+2'] })];
    expect(inboundTrunkConflict(distinct.map((entry) => entry.trunk))).toBeUndefined();
  });
});
