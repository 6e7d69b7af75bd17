import { SipClient } from 'livekit-server-sdk';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/server.js';
import { DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { startTestServer } from '../support/test-server.js';

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

describe.runIf(withPostgres)('SIP service: two instances on one PostgreSQL database', () => {
  it('a trunk and a rule made on one instance route the next call on the other, and are listed there', async () => {
    const schema = uniqueSchema();
    const options = { env: {}, databaseSchema: schema, config: { logLevel: 'silent' as const, databaseUrl: postgresUrl } };
    const [first, second] = await Promise.all([createServer(options), createServer(options)]);
    try {
      const [firstUrl, secondUrl] = await Promise.all([first.listen(0, '127.0.0.1'), second.listen(0, '127.0.0.1')]);
      const onFirst = new SipClient(firstUrl, DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET);
      const onSecond = new SipClient(secondUrl, DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET);
      const trunk = await onFirst.createSipInboundTrunk('shared', ['+15550600']);
      const rule = await onFirst.createSipDispatchRule({ type: 'direct', roomName: 'shared-desk' }, { trunkIds: [trunk.sipTrunkId] });

      expect((await onSecond.listSipInboundTrunk()).map((item) => item.sipTrunkId)).toEqual([trunk.sipTrunkId]);
      const call = { callId: 'SCL_shared', fromUser: '+15551234', fromHost: 'h', toUser: '+15550600', toHost: 'palaver', sourceAddress: '127.0.0.1' };
      const match = await second.services.sip.directory.findInboundTrunk(call);
      expect(match).toMatchObject({ kind: 'trunk', trunk: { trunkId: trunk.sipTrunkId } });
      const route = await second.services.sip.directory.dispatch(call, match!.kind === 'trunk' ? match!.trunk : (undefined as never));
      expect(route).toMatchObject({ ruleId: rule.sipDispatchRuleId, roomName: 'shared-desk' });

      // Two instances creating conflicting trunks at once: the project's SIP lock lets exactly one through.
      const racing = await Promise.allSettled([
        onFirst.createSipInboundTrunk('race a', ['+15550601']),
        onSecond.createSipInboundTrunk('race b', ['+15550601']),
      ]);
      expect(racing.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(racing.find((result) => result.status === 'rejected')).toMatchObject({ reason: { status: 400, code: 'invalid_argument' } });

      await onSecond.deleteSipDispatchRule(rule.sipDispatchRuleId);
      expect(await first.services.sip.directory.dispatch(call, match!.kind === 'trunk' ? match!.trunk : (undefined as never))).toBeUndefined();
    } finally {
      await Promise.all([first.close(), second.close()]);
      await dropSchema(schema);
    }
  });
});

describe('SIP service with a LiveKit deployment configured: calls are forwarded to its SIP service', () => {
  it('SipClient against the platform reaches the deployment (here another platform instance speaking LiveKit) and its errors come back', async () => {
    // The "deployment" is a platform with its embedded endpoint: LiveKit's SIP API, served from its own database.
    const deployment = await startTestServer('sqlite');
    const deploymentUrl = await deployment.server.listen(0, '127.0.0.1');
    const platform = await startTestServer('sqlite', {
      config: { livekit: { url: deploymentUrl.replace(/^http/, 'ws'), apiKey: DEVELOPMENT_API_KEY, apiSecret: DEVELOPMENT_API_SECRET } },
    });
    try {
      const platformUrl = await platform.server.listen(0, '127.0.0.1');
      expect(platform.server.services.media.mode).toBe('livekit');
      const sip = new SipClient(platformUrl, DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET);
      const trunk = await sip.createSipInboundTrunk('forwarded', ['+15550700'], { allowedAddresses: ['10.0.0.0/8'] });
      const direct = new SipClient(deploymentUrl, DEVELOPMENT_API_KEY, DEVELOPMENT_API_SECRET);
      expect((await direct.listSipInboundTrunk()).map((item) => item.sipTrunkId)).toEqual([trunk.sipTrunkId]);
      const rule = await sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'call', pin: '4321' }, { trunkIds: [trunk.sipTrunkId], name: 'fwd' });
      expect((await direct.listSipDispatchRule())[0]).toMatchObject({ sipDispatchRuleId: rule.sipDispatchRuleId, name: 'fwd' });
      // Nothing is stored on the forwarding platform.
      expect(
        await platform.server.services.sip.directory.findInboundTrunk({
          callId: 'c',
          fromUser: '+1',
          fromHost: 'h',
          toUser: '+15550700',
          toHost: 'p',
          sourceAddress: '10.1.2.3',
        }),
      ).toBeUndefined();
      await expect(sip.deleteSipTrunk('ST_missing')).rejects.toMatchObject({ status: 404, code: 'not_found' });
      await expect(sip.createSipParticipant(trunk.sipTrunkId, '+15550701', 'room')).rejects.toMatchObject({ status: 404, code: 'not_found' });
      await sip.deleteSipDispatchRule(rule.sipDispatchRuleId);
      await sip.deleteSipTrunk(trunk.sipTrunkId);
      expect(await direct.listSipInboundTrunk()).toEqual([]);
    } finally {
      await platform.close();
      await deployment.close();
    }
  });
});
