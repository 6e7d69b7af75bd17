import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, PermissionDeniedError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Validation and auth run before any handler, so these hold whatever the session engine does.
describe.each(await storeKinds())('realtime and partner routes: input and auth (%s)', (kind) => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer(kind);
  });
  afterAll(async () => test.close());

  const invalid = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect((error as BadRequestError).status).toBe(400);
    expect((error as BadRequestError).type).toBe('invalid_input');
    return (error as BadRequestError).message;
  };

  it('names the missing or invalid field of a start request', async () => {
    expect(await invalid(test.client.realtime.start({} as never))).toContain('config');
    const config = { general: {}, input: {}, output: {}, generative: {} };
    expect(await invalid(test.client.realtime.start({ config }))).toContain('config.generative.llm');
    expect(await invalid(test.client.realtime.start({ config: { ...config, generative: { llm: 'l' }, general: { time_limit_s: -1 } } }))).toContain(
      'config.general.time_limit_s',
    );
  });

  it('validates update and speak bodies', async () => {
    expect(await invalid(test.client.realtime.update('rs_1', { input: { interruptable: 'no' } } as never))).toContain('input.interruptable');
    expect(await invalid(test.client.realtime.speak('rs_1', { text: '' }))).toContain('text');
  });

  it('requires exactly one avatar source on partner sessions and an action on avatar actions', async () => {
    const body = { conversation_id: 'c1', config: { general: {}, input: {}, generative: {}, output: {} } };
    expect(await invalid(test.client.partner.startAvatarSession(body))).toContain('avatar_agent_id');
    expect(
      await invalid(test.client.partner.startAvatarSession({ ...body, avatar_agent_id: 'a', avatar_agent_image_url: 'https://img.test/a.png' })),
    ).toContain('avatar_agent_id');
    expect(await invalid(test.client.partner.avatarAction('rs_1', {} as never))).toContain('action');
  });

  it('refuses usage tokens on speak (K) and missing credentials everywhere', async () => {
    const { token } = await test.client.usage.createToken({ human: 'alice' });
    const asAlice = test.clientWith({ usageToken: token });
    const forbidden = await asAlice.realtime.speak('rs_1', { text: 'hi' }).catch((caught: unknown) => caught);
    expect(PermissionDeniedError.isInstance(forbidden)).toBe(true);
    const anonymous = test.clientWith({});
    for (const call of [
      () => anonymous.realtime.list(),
      () => anonymous.realtime.retrieve('rs_1'),
      () => anonymous.partner.avatarAction('rs_1', { action: 'wave' }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(AuthenticationError.isInstance(error)).toBe(true);
    }
  });
});
