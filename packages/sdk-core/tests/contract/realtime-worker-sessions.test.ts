import { JobType, RegisterWorkerRequest, ServerMessage, WorkerMessage } from '@livekit/protocol';
import { AccessToken } from 'livekit-server-sdk';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BadRequestError } from '../../src/index.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { OFFLINE_LLM_ID } from '../../src/server/domain/llms/built-in-llms.js';
import { storeKinds } from '../support/databases.js';
import { apiFailureOf } from '../support/failure-of.js';
import { useTestServer } from '../support/suite-server.js';
import type { TestServer } from '../support/test-server.js';

const worker = { type: 'livekit_worker', agent_name: 'contract-worker' } as const;

/** A LiveKit Agents worker registered by hand on the embedded endpoint's `/agent` socket (it takes no job). */
async function registerWorker(test: TestServer, url: string, agentName: string): Promise<WebSocket> {
  const token = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET);
  token.addGrant({ agent: true });
  const socket = new WebSocket(`${url}/agent`, { headers: { authorization: `Bearer ${await token.toJwt()}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const registered = new Promise<void>((resolve) =>
    socket.on('message', (data) => ServerMessage.fromBinary(new Uint8Array(data as Buffer)).message.case === 'register' && resolve()),
  );
  socket.send(
    new WorkerMessage({
      message: { case: 'register', value: new RegisterWorkerRequest({ type: JobType.JT_ROOM, agentName, version: 'contract' }) },
    }).toBinary(),
  );
  await registered;
  return socket;
}

/**
 * `config.general.agent` naming a LiveKit Agents worker makes `input`, `output` and `generative` optional (a Palaver
 * extension, decision 0085); for the built-in agent they stay required as the API specifies.
 */
describe.each(await storeKinds())('realtime sessions whose agent is a LiveKit Agents worker (%s)', (kind) => {
  const test = useTestServer(kind, { config: { webhook: { dispatch: false } } });

  it('start with only general.agent: input and output get their defaults, generative the offline LLM and a new context', async () => {
    const { session, connection_details } = await test.client.realtime.start({ config: { general: { agent: worker } }, simulated: true });
    expect(session.config.general).toEqual({ time_limit_s: null, save_messages: true, agent: worker });
    expect(session.config.input).toEqual({ interruptable: true, parallel_listening: false });
    expect(session.config.output).toEqual({ stream_transcript: true, speech_synthesis_enabled: true });
    expect(session.config.generative.llm.id).toBe(OFFLINE_LLM_ID);
    expect(session.config.generative.context.id).toBeDefined();
    expect(connection_details.token).toBeTruthy();
    // What was filled in is stored: the session reads back the same.
    expect((await test.client.realtime.retrieve(session.id)).config).toEqual(session.config);
  });

  it('a generative section without an LLM only names the context the messages are saved to', async () => {
    const context = await test.client.contexts.create();
    const { session } = await test.client.realtime.start({ config: { general: { agent: worker }, generative: { context: context.id } }, simulated: true });
    expect(session.config.generative.llm.id).toBe(OFFLINE_LLM_ID);
    expect(session.config.generative.context.id).toBe(context.id);
  });

  it('a worker session that passed validation reaches the dispatch: 503 naming the worker nobody runs', async () => {
    const error = await apiFailureOf(
      test.client.realtime.start({ config: { general: { agent: { type: 'livekit_worker', agent_name: 'nobody-runs-this' } } } }),
    );
    expect(error.status, error.message).toBe(503);
    expect(error.message).toContain("no LiveKit Agents worker named 'nobody-runs-this'");
  });

  it('the built-in agent still needs every section: a 400 BadRequest naming each missing one and saying why', async () => {
    for (const general of [{}, { agent: { type: 'builtin' as const } }]) {
      const error = await apiFailureOf(test.client.realtime.start({ config: { general }, simulated: true }));
      expect(BadRequestError.isInstance(error)).toBe(true);
      expect(error.type).toBe('invalid_input');
      for (const section of ['config.input', 'config.generative', 'config.output']) {
        expect(error.message).toContain(`${section}: expected object, received undefined: required unless \`general.agent\` is a LiveKit Agents worker`);
      }
    }
    const withoutLlm = await apiFailureOf(test.client.realtime.start({ config: { general: {}, input: {}, output: {}, generative: {} }, simulated: true }));
    expect(withoutLlm.message).toContain('config.generative.llm');

    // The spec's BadRequest body, exactly: {type, message}.
    const response = await test.server.fetch(
      new Request('http://palaver.test/v1/realtime/start', {
        method: 'POST',
        headers: { 'x-api-key': test.server.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ config: { general: {}, input: {}, generative: { llm: OFFLINE_LLM_ID } }, simulated: true }),
      }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['message', 'type']);
    expect(body).toEqual({
      type: 'invalid_input',
      message: 'Invalid body: config.output: expected object, received undefined: required unless `general.agent` is a LiveKit Agents worker',
    });
  });

  it('GET /v1/realtime/agents lists the built-in agent, then each registered worker name, to keys and usage tokens', async () => {
    expect(await test.client.realtime.agents()).toEqual({ values: [{ type: 'builtin' }], workers_listed: true });
    const url = (await test.server.listen(0, '127.0.0.1')).replace(/^http/, 'ws');
    const sockets = [
      await registerWorker(test, url, 'contract-worker'),
      await registerWorker(test, url, 'contract-worker'),
      await registerWorker(test, url, ''),
    ];
    try {
      const expected = {
        values: [{ type: 'builtin' }, { type: 'livekit_worker', agent_name: 'contract-worker', workers: 2, available: true }],
        workers_listed: true,
      };
      expect(await test.client.realtime.agents()).toEqual(expected);
      const { token } = await test.client.usage.createToken({ human: 'agents-visitor' });
      expect(await test.clientWith({ usageToken: token }).realtime.agents()).toEqual(expected);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it('says so in /openapi.json: only general is required, and the description names the Palaver extension', async () => {
    const document = (await (await test.server.fetch(new Request('http://palaver.test/openapi.json'))).json()) as {
      components: { schemas: Record<string, { required?: string[]; description?: string }> };
      paths: Record<string, unknown>;
    };
    const create = document.components.schemas.RealtimeSessionConfigCreate!;
    expect(create.required).toEqual(['general']);
    expect(create.description).toContain('Palaver extension');
    expect(create.description).toContain('LiveKit Agents worker');
    expect(document.paths['/v1/realtime/agents']).toBeDefined();
  });
});
