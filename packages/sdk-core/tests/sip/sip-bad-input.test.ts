import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessToken } from 'livekit-server-sdk';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Bad calls of `/twirp/livekit.SIP/*` get Twirp's `{code, msg}` with the code's status, never a 500. */
describe('SIP service: bad input answers Twirp errors', () => {
  let test: TestServer;
  let admin: string;
  let url: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    url = await test.server.listen(0, '127.0.0.1');
    const token = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET, { ttl: 600 });
    token.addSIPGrant({ admin: true, call: true });
    admin = await token.toJwt();
  });
  afterAll(() => test?.close());

  async function call(method: string, body: string, authorization = `Bearer ${admin}`): Promise<{ status: number; json: { code: string; msg: string } }> {
    const response = await fetch(`${url}/twirp/livekit.SIP/${method}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body,
    });
    expect(response.headers.get('content-type')).toBe('application/json');
    return { status: response.status, json: (await response.json()) as { code: string; msg: string } };
  }

  it.each([
    ['malformed JSON', 'CreateSIPInboundTrunk', '{"trunk": {', 400, 'malformed'],
    ['a JSON array', 'ListSIPInboundTrunk', '[1,2]', 400, 'malformed'],
    ['a field of the wrong type', 'CreateSIPInboundTrunk', '{"trunk": {"numbers": "+15550100"}}', 400, 'malformed'],
    ['no trunk', 'CreateSIPInboundTrunk', '{}', 400, 'invalid_argument'],
    ['an inbound trunk anyone could call', 'CreateSIPInboundTrunk', '{"trunk": {"name": "open"}}', 400, 'invalid_argument'],
    ['a bad CIDR', 'CreateSIPInboundTrunk', '{"trunk": {"allowed_addresses": ["10.0.0.0/40"]}}', 400, 'invalid_argument'],
    ['a password without user', 'CreateSIPInboundTrunk', '{"trunk": {"numbers": ["+1"], "auth_password": "x"}}', 400, 'invalid_argument'],
    ['an outbound trunk without address', 'CreateSIPOutboundTrunk', '{"trunk": {"numbers": ["+15550100"]}}', 400, 'invalid_argument'],
    ['a rule without kind', 'CreateSIPDispatchRule', '{"dispatch_rule": {"name": "x"}}', 400, 'invalid_argument'],
    ['a direct rule without room', 'CreateSIPDispatchRule', '{"rule": {"dispatch_rule_direct": {}}}', 400, 'invalid_argument'],
    [
      'a rule naming an unknown trunk',
      'CreateSIPDispatchRule',
      '{"rule": {"dispatch_rule_individual": {"room_prefix": "c"}}, "trunk_ids": ["ST_nope"]}',
      400,
      'invalid_argument',
    ],
    [
      'a palaver answer that is none',
      'CreateSIPDispatchRule',
      JSON.stringify({ rule: { dispatch_rule_individual: { room_prefix: 'c' } }, metadata: JSON.stringify({ palaver: { realtime: { general: 5 } } }) }),
      400,
      'invalid_argument',
    ],
    ['deleting an unknown trunk', 'DeleteSIPTrunk', '{"sip_trunk_id": "ST_nope"}', 404, 'not_found'],
    ['deleting without id', 'DeleteSIPTrunk', '{}', 400, 'invalid_argument'],
    ['getting an unknown trunk', 'GetSIPInboundTrunk', '{"sip_trunk_id": "ST_nope"}', 404, 'not_found'],
    ['deleting an unknown rule', 'DeleteSIPDispatchRule', '{"sip_dispatch_rule_id": "SDR_nope"}', 404, 'not_found'],
    ['updating an unknown rule', 'UpdateSIPDispatchRule', '{"sip_dispatch_rule_id": "SDR_nope", "update": {"name": "x"}}', 404, 'not_found'],
    ['a call without number', 'CreateSIPParticipant', '{"sip_trunk_id": "ST_x", "room_name": "r"}', 400, 'invalid_argument'],
    ['a call with neither trunk id nor inline trunk', 'CreateSIPParticipant', '{"sip_call_to": "+1", "room_name": "r"}', 400, 'invalid_argument'],
    [
      'an inline trunk without hostname',
      'CreateSIPParticipant',
      '{"trunk": {"auth_username": "u"}, "sip_call_to": "+1", "room_name": "r"}',
      400,
      'invalid_argument',
    ],
    [
      'an inline trunk with a bad hostname',
      'CreateSIPParticipant',
      '{"trunk": {"hostname": "a b;c"}, "sip_call_to": "+1", "room_name": "r"}',
      400,
      'invalid_argument',
    ],
    [
      'both a trunk id and an inline trunk',
      'CreateSIPParticipant',
      '{"sip_trunk_id": "ST_x", "trunk": {"hostname": "127.0.0.1"}, "sip_call_to": "+1", "room_name": "r"}',
      400,
      'invalid_argument',
    ],
    ['a call through an unknown trunk', 'CreateSIPParticipant', '{"sip_trunk_id": "ST_x", "sip_call_to": "+1", "room_name": "r"}', 404, 'not_found'],
    [
      'a transfer without the room admin grant',
      'TransferSIPParticipant',
      '{"room_name": "r", "participant_identity": "p", "transfer_to": "+15550100"}',
      403,
      'permission_denied',
    ],
    ['an unknown method', 'CreateSIPTeleporter', '{}', 404, 'bad_route'],
  ])('%s', async (_name, method, body, status, code) => {
    const answer = await call(method, body);
    expect(answer).toMatchObject({ status, json: { code } });
    expect(answer.json.msg.length).toBeGreaterThan(0);
  });

  it('a transfer to something that is no tel: or sip: URI, by a room admin', async () => {
    const token = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET, { ttl: 600 });
    token.addSIPGrant({ call: true });
    token.addGrant({ roomAdmin: true, room: 'r' });
    const answer = await call(
      'TransferSIPParticipant',
      '{"room_name": "r", "participant_identity": "p", "transfer_to": "+15550100"}',
      `Bearer ${await token.toJwt()}`,
    );
    expect(answer).toMatchObject({ status: 400, json: { code: 'invalid_argument' } });
  });

  it('no token, a token of another key, and a GET', async () => {
    expect(await call('ListSIPInboundTrunk', '{}', '')).toMatchObject({ status: 401, json: { code: 'unauthenticated' } });
    const foreign = new AccessToken('otherkey', 'another-secret-of-enough-length-000000', { ttl: 60 });
    foreign.addSIPGrant({ admin: true });
    expect(await call('ListSIPInboundTrunk', '{}', `Bearer ${await foreign.toJwt()}`)).toMatchObject({ status: 401, json: { code: 'unauthenticated' } });
    const get = await fetch(`${url}/twirp/livekit.SIP/ListSIPInboundTrunk`);
    expect(get.status).toBe(404);
    expect(await get.json()).toMatchObject({ code: 'bad_route' });
  });

  it('conflicting trunks and rules are refused, as LiveKit refuses them', async () => {
    const trunk = '{"trunk": {"numbers": ["+15550900"]}}';
    expect((await call('CreateSIPInboundTrunk', trunk)).status).toBe(200);
    expect(await call('CreateSIPInboundTrunk', trunk)).toMatchObject({ status: 400, json: { code: 'invalid_argument' } });
    const rule = '{"rule": {"dispatch_rule_direct": {"room_name": "desk"}}, "inbound_numbers": ["+15550901"]}';
    expect((await call('CreateSIPDispatchRule', rule)).status).toBe(200);
    expect(await call('CreateSIPDispatchRule', rule)).toMatchObject({ status: 400, json: { code: 'invalid_argument' } });
  });
});
