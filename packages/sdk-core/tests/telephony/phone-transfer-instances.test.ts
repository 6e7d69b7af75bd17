import { SipCallError, SipClient } from 'livekit-server-sdk';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/server.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { redisUrl, withRedis } from '../support/redis.js';
import { freeUdpPort, requireSipp, runSipp, runSippServer, scenario } from './support/sip-tools.js';

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);
const ready = withPostgres && (await withRedis()) && requireSipp();

/**
 * Two platform instances on one PostgreSQL database and one Redis bus, each with its SIP endpoint: a SIPp caller's
 * call is held by the first; `TransferSIPParticipant` asked of the second reaches it (REFER, the NOTIFY of the
 * target's answer, the hang-up); so is a call the first placed (a SIPp callee). Once the calls are over, a transfer
 * asked of either finds no call.
 */
describe.runIf(ready)('phone calls across instances (PostgreSQL + Redis)', () => {
  it('a transfer asked of the instance not holding the call is carried out by the one that holds it', async () => {
    const schema = uniqueSchema();
    const options = { env: {}, databaseSchema: schema, config: { logLevel: 'silent' as const, databaseUrl: postgresUrl, redisUrl, sip: { port: 0 } } };
    const [holder, other] = await Promise.all([createServer(options), createServer(options)]);
    try {
      const [holderUrl, otherUrl] = await Promise.all([holder.listen(0, '127.0.0.1'), other.listen(0, '127.0.0.1')]);
      const onHolder = new SipClient(holderUrl, holder.services.media.apiKey, DEVELOPMENT_API_SECRET);
      const onOther = new SipClient(otherUrl, other.services.media.apiKey, DEVELOPMENT_API_SECRET);
      const trunk = await onOther.createSipInboundTrunk('transfers', ['+15550778']);
      await onOther.createSipDispatchRule({ type: 'direct', roomName: 'shared-front-desk' }, { trunkIds: [trunk.sipTrunkId] });

      const caller = runSipp(holder.services.telephony!.port, ['-sf', scenario('transferee.xml'), '-s', '+15550778', '-m', '1']);
      let done: string | undefined;
      void caller.then((result) => (done = result.output));
      await eventually(() => {
        if (done) throw new Error(`SIPp ended: ${done}`);
        expect(holder.services.media.endpoint!.rooms.get('shared-front-desk')?.member('sip_+15550100')).toBeDefined();
      }, 20_000);
      expect(other.services.telephony!.activeCalls).toBe(0);

      await onOther.transferSipParticipant('shared-front-desk', 'sip_+15550100', 'tel:+15550999');
      const result = await caller;
      expect(result.code, result.output).toBe(0);
      await eventually(() => expect(holder.services.telephony!.activeCalls).toBe(0));

      // A call placed by the holder (CreateSIPParticipant there) is reached from the other instance too.
      const port = await freeUdpPort();
      const callee = runSippServer(port, ['-sf', scenario('transferred-callee.xml'), '-m', '1']);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const outbound = await onHolder.createSipOutboundTrunk('out', `127.0.0.1:${port}`, ['+15550199']);
      await onHolder.createSipParticipant(outbound.sipTrunkId, '+15550123', 'shared-callback', { participantIdentity: 'callee', waitUntilAnswered: true });
      await onOther.transferSipParticipant('shared-callback', 'callee', 'tel:+15550999');
      const placed = await callee;
      expect(placed.code, placed.output).toBe(0);
      await eventually(() => expect(holder.services.telephony!.activeCalls).toBe(0));

      // The calls are over: neither instance reaches them any more.
      for (const client of [onOther, onHolder]) {
        for (const [room, identity] of [
          ['shared-front-desk', 'sip_+15550100'],
          ['shared-callback', 'callee'],
        ] as const) {
          const failure = await failureOf(client.transferSipParticipant(room, identity, 'tel:+15550999'));
          expect(failure).toBeInstanceOf(SipCallError);
          expect((failure as SipCallError).sipStatusCode).toBe(481);
        }
      }
    } finally {
      await Promise.all([holder.close(), other.close()]);
      await dropSchema(schema);
    }
  }, 90_000);
});
