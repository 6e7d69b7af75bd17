import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendDataRequest } from '@livekit/protocol';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError } from '../../src/index.js';
import type { ReceivedData } from '../../src/server/engines/media/agent-transport.js';
import { MediaService } from '../../src/server/engines/media/media-service.js';
import { sendRoomData } from '../../src/server/domain/realtime/room-data.js';
import { partnerLlmId } from '../../src/server/domain/realtime/partner-avatar-service.js';
import { storeKinds } from '../support/databases.js';
import { apiFailureOf } from '../support/failure-of.js';
import { useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

const config = { general: {}, input: {}, generative: {}, output: {} };

/** A partner start body: a simulated session of conversation `conversation` with an avatar id, unless `rest` says otherwise. */
function startBody(conversation: string, rest: Record<string, unknown> = {}) {
  return { conversation_id: conversation, config, simulated: true, avatar_agent_id: 'avatar-7', ...rest };
}

async function invalidField(promise: Promise<unknown>): Promise<string> {
  const error = await apiFailureOf(promise);
  expect(BadRequestError.isInstance(error), error.message).toBe(true);
  expect(error.status).toBe(400);
  return error.message;
}

describe('the LLM of partner sessions', () => {
  it('is the first configured hosted built-in, else the offline model', () => {
    const none = {
      openaiApiKey: undefined,
      openaiModels: ['gpt-4o-mini'],
      openaiBaseUrl: 'https://api.openai.com/v1',
      ollamaUrl: undefined,
      ollamaModels: ['llama3.1:8b'],
    };
    expect(partnerLlmId(none as never)).toBe('builtin-offline');
    expect(partnerLlmId({ ...none, ollamaUrl: 'http://ollama.test:11434' } as never)).toBe('builtin-ollama-llama3.1-8b');
    expect(partnerLlmId({ ...none, ollamaUrl: 'http://ollama.test:11434', openaiApiKey: 'sk-test' } as never)).toBe('builtin-openai-gpt-4o-mini');
  });
});

describe('avatar actions on a LiveKit deployment', () => {
  it('go through the RoomService SendData call with a room-admin token', async () => {
    const calls: Array<{ url: string | undefined; authorization: string | undefined; body: string }> = [];
    let status = 200;
    const fake = createHttpServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        calls.push({ url: request.url, authorization: request.headers.authorization, body });
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(status === 200 ? '{}' : '{"code":"not_found","msg":"requested room does not exist"}');
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = fake.address() as AddressInfo;
      const media = new MediaService(
        'livekit',
        'lk-key',
        'lk-secret-0123456789-0123456789-0123',
        undefined as never,
        undefined,
        `ws://127.0.0.1:${port}`,
        undefined as never,
      );
      await sendRoomData(media, 'rts_room1', 'avatar_action', '{"action":"wave"}');
      expect(calls).toHaveLength(1);
      expect(calls[0]!.url).toBe('/twirp/livekit.RoomService/SendData');
      const request = SendDataRequest.fromJson(JSON.parse(calls[0]!.body));
      expect(request.room).toBe('rts_room1');
      expect(request.topic).toBe('avatar_action');
      expect(new TextDecoder().decode(request.data)).toBe('{"action":"wave"}');
      expect(request.nonce).toHaveLength(16);
      expect(decodeJwt(calls[0]!.authorization!.replace(/^Bearer /, ''))).toMatchObject({ iss: 'lk-key', video: { roomAdmin: true, room: 'rts_room1' } });
      status = 404;
      await expect(sendRoomData(media, 'rts_gone', 'avatar_action', '{}')).rejects.toThrow(/refused the packet for room 'rts_gone': 404/);
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});

describe.each(await storeKinds())('partner avatar sessions (%s)', (kind) => {
  const test = useTestServer(kind, { config: { webhook: { dispatch: false } } });
  const alice = useHumanClient(test, 'alice');
  const bob = useHumanClient(test, 'bob');

  it('starts a realtime session with the fixed LLM, the partner config and the avatar data in _extra, visible through realtime retrieve', async () => {
    const { session, connection_details } = await alice.partner.startAvatarSession(
      startBody('conv-start', {
        config: {
          general: { time_limit_s: 120 },
          input: { interruptable: false },
          generative: {},
          output: { stream_transcript: false, answer_message: 'Hi, I am your avatar.' },
        },
      }),
    );
    expect(session).toMatchObject({ state: 'not_started', simulated: true, human: 'alice' });
    expect(session._extra).toEqual({ partner: 'partner_a', conversation_id: 'conv-start', environment: 'production', avatar_agent_id: 'avatar-7' });
    expect(session.config.general).toEqual({ time_limit_s: 120, save_messages: true });
    expect(session.config.input).toEqual({ interruptable: false, parallel_listening: false });
    expect(session.config.output).toEqual({ stream_transcript: false, speech_synthesis_enabled: true, answer_message: 'Hi, I am your avatar.' });
    expect(session.config.generative.llm.id).toBe(partnerLlmId(test.server.services.config.llm));
    expect(session.config.generative.voice_override).toBeUndefined();
    expect(decodeJwt(connection_details.token)).toMatchObject({ sub: 'alice', video: { room: session.id } });
    expect(await alice.realtime.retrieve(session.id)).toEqual(session);

    const byImage = await test.client.partner.startAvatarSession({
      conversation_id: 'conv-image',
      config,
      simulated: true,
      environment: 'staging',
      avatar_agent_image_url: 'https://img.test/avatar.png',
    });
    expect((await test.client.realtime.retrieve(byImage.session.id))._extra).toEqual({
      partner: 'partner_a',
      conversation_id: 'conv-image',
      environment: 'staging',
      avatar_agent_image_url: 'https://img.test/avatar.png',
    });
  });

  it('requires exactly one of avatar_agent_id and avatar_agent_image_url, naming both', async () => {
    const neither = await invalidField(test.client.partner.startAvatarSession({ conversation_id: 'conv-x', config }));
    const both = await invalidField(test.client.partner.startAvatarSession(startBody('conv-x', { avatar_agent_image_url: 'https://img.test/a.png' })));
    for (const message of [neither, both]) {
      expect(message).toContain('avatar_agent_id');
      expect(message).toContain('avatar_agent_image_url');
    }
    expect((await test.client.realtime.list()).values.some((session) => session._extra?.['conversation_id'] === 'conv-x')).toBe(false);
  });

  it('resolves the voice: voice_override as in realtime, tts against the voice catalogue, 400 naming the field otherwise', async () => {
    const withVoice = await alice.partner.startAvatarSession(startBody('conv-voice', { config: { ...config, generative: { voice_override: 'flite-rms' } } }));
    expect(withVoice.session.config.generative.voice_override).toMatchObject({ id: 'flite-rms', service: 'flite' });
    expect(
      await invalidField(
        alice.partner.startAvatarSession(startBody('conv-voice-2', { config: { ...config, generative: { voice_override: 'voice_missing' } } })),
      ),
    ).toContain('config.generative.voice_override');

    const withTts = await alice.partner.startAvatarSession(startBody('conv-tts', { tts: { service: 'flite', voice: 'slt' } }));
    expect(withTts.session.config.generative.voice_override).toMatchObject({ id: 'flite-slt' });
    expect(withTts.session._extra).toMatchObject({ tts: { service: 'flite', voice: 'slt' } });
    // The same voice named both ways is fine; two different voices are not.
    const same = await alice.partner.startAvatarSession(
      startBody('conv-tts-2', { tts: { service: 'flite', voice: 'flite-slt' }, config: { ...config, generative: { voice_override: 'flite-slt' } } }),
    );
    expect(same.session.config.generative.voice_override?.id).toBe('flite-slt');
    const conflict = await invalidField(
      alice.partner.startAvatarSession(
        startBody('conv-tts-3', { tts: { service: 'flite', voice: 'slt' }, config: { ...config, generative: { voice_override: 'flite-rms' } } }),
      ),
    );
    expect(conflict).toContain('config.generative.voice_override');
    expect(conflict).toContain('tts');
    expect(await invalidField(alice.partner.startAvatarSession(startBody('conv-tts-4', { tts: { service: 'no-such-engine', voice: 'slt' } })))).toContain(
      'tts.service',
    );
    expect(await invalidField(alice.partner.startAvatarSession(startBody('conv-tts-5', { tts: { service: 'flite', voice: 'nobody' } })))).toContain(
      'tts.voice',
    );
    expect(
      await invalidField(
        alice.partner.startAvatarSession(
          startBody('conv-tts-6', { tts: { service: 'flite', voice: 'slt' }, config: { ...config, generative: { voice_override: 'voice_missing' } } }),
        ),
      ),
    ).toContain('config.generative.voice_override');
  });

  it('keeps one open session per conversation and caller', async () => {
    const first = await alice.partner.startAvatarSession(startBody('conv-once'));
    const again = await invalidField(alice.partner.startAvatarSession(startBody('conv-once')));
    expect(again).toContain('conversation_id');
    expect(again).toContain(first.session.id);
    // Another caller's conversation of the same id is a different conversation.
    expect((await bob.partner.startAvatarSession(startBody('conv-once'))).session.human).toBe('bob');
    // Characters that mean something to SQL LIKE are matched literally.
    await alice.partner.startAvatarSession(startBody('conv_%\\"once'));
    expect(await invalidField(alice.partner.startAvatarSession(startBody('conv_%\\"once')))).toContain('conversation_id');
    await alice.partner.startAvatarSession(startBody('convX%once'));
    // Once ended, the conversation can start again.
    await alice.realtime.end(first.session.id);
    const next = await alice.partner.startAvatarSession(startBody('conv-once'));
    expect(next.session.id).not.toBe(first.session.id);
  });

  it('refuses actions on sessions of another human (404), non-partner sessions and sessions not in progress (400)', async () => {
    const { session } = await alice.partner.startAvatarSession(startBody('conv-actions'));
    expect(NotFoundError.isInstance(await apiFailureOf(bob.partner.avatarAction(session.id, { action: 'wave' })))).toBe(true);
    expect(NotFoundError.isInstance(await apiFailureOf(alice.partner.avatarAction('rts_missing', { action: 'wave' })))).toBe(true);
    const simulated = await invalidField(alice.partner.avatarAction(session.id, { action: 'wave' }));
    expect(simulated).toContain('not in progress');
    const plain = await alice.realtime.start({ config: { ...config, generative: { llm: 'builtin-offline' } }, simulated: true });
    expect(await invalidField(alice.partner.avatarAction(plain.session.id, { action: 'wave' }))).toContain('not a partner avatar session');
    expect((await alice.realtime.retrieve(session.id))._extra?.['actions']).toBeUndefined();
  });

  it('sends an action of a live session into its room as an avatar_action packet for everyone', async () => {
    await test.server.listen(0, '127.0.0.1');
    const asStarter = test.clientWith({ apiKey: test.server.apiKey, humanId: 'avatar-human' });
    const { session, connection_details } = await asStarter.partner.startAvatarSession(startBody('conv-live', { simulated: false }));
    expect(session.state).toBe('in_progress');
    const identity = decodeJwt(connection_details.token).sub!;
    expect(identity).toBe('avatar-human');
    const human = await test.server.services.media.transport.join({ room: session.id, identity });
    try {
      const received: ReceivedData[] = [];
      human.on('data', (data) => received.push(data));
      const before = Date.now();
      await asStarter.partner.avatarAction(session.id, { action: 'wave' });
      await asStarter.partner.avatarAction(session.id, { action: 'dance' });
      await expect.poll(() => received.filter((data) => data.topic === 'avatar_action').length, { timeout: 5_000 }).toBe(2);
      const packets = received.filter((data) => data.topic === 'avatar_action');
      const bodies = packets.map((data) => JSON.parse(new TextDecoder().decode(data.payload)) as { action: string; at: string });
      expect(bodies.map((body) => body.action)).toEqual(['wave', 'dance']);
      for (const body of bodies) expect(Date.parse(body.at)).toBeGreaterThanOrEqual(before - 1000);
      expect(packets.every((data) => data.reliable && data.from === undefined)).toBe(true);
      expect((await asStarter.realtime.retrieve(session.id))._extra).toMatchObject({ partner: 'partner_a', actions: bodies });
      // Bob cannot act on it; once ended, nobody can.
      const bobByKey = test.clientWith({ apiKey: test.server.apiKey, humanId: 'bob' });
      expect(NotFoundError.isInstance(await apiFailureOf(bobByKey.partner.avatarAction(session.id, { action: 'turn' })))).toBe(true);
      await asStarter.realtime.end(session.id);
      expect(await invalidField(asStarter.partner.avatarAction(session.id, { action: 'turn' }))).toContain('not in progress');
    } finally {
      await human.leave();
    }
  });
});
