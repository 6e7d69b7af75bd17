import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGER, textContextMessage } from '../../src/contract/graph/pad-values.js';
import { RuntimeSinkPad } from '../../src/server/graph/runtime/pads.js';
import { AudioClip, TextStream } from '../../src/server/graph/runtime/stream-values.js';
import { platformNodeLibrary } from '../../src/server/graph/library/node-library.js';
import { validateGraph } from '../../src/server/graph/validation/validate-graph.js';
import { loadConfig } from '../../src/server/kernel/config.js';
import { startFakeLocalSpeechServer, type FakeLocalSpeechServer } from '../../src/testing/fake-local-speech-server.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { graphOf, runGraph, type GraphKitRun } from '../../src/testing/graph-kit.js';
import { HumanParticipant } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { startTestServer } from '../support/test-server.js';

function sink(run: GraphKitRun, path: string): RuntimeSinkPad {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  return pad;
}

/** A 440 Hz tone of `ms` (loud), or silence, as 20 ms 48 kHz frames. */
function frames(ms: number, loud: boolean): Int16Array[] {
  const out: Int16Array[] = [];
  for (let index = 0; index < ms / 20; index += 1) {
    const samples = new Int16Array(960);
    if (loud)
      for (let sample = 0; sample < samples.length; sample += 1)
        samples[sample] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (index * 960 + sample)) / 48_000));
    out.push(samples);
  }
  return out;
}

async function play(run: GraphKitRun, path: string, parts: Int16Array[]): Promise<void> {
  for (const samples of parts) {
    sink(run, path).receive({ kind: 'runtime:audio', frame: { samples, sampleRate: 48_000, channels: 1 }, origin: 'human' });
    await sleep(2);
  }
}

describe('local inference servers of the operator', () => {
  it('come from PALAVER_GRAPH_LOCAL_URL and PALAVER_GRAPH_LOCAL_PORTS (default: 127.0.0.1, the engine ports and Ollama)', () => {
    expect(loadConfig({}).graph).toMatchObject({ localUrl: 'http://127.0.0.1', localPorts: [7002, 7004, 11434] });
    const configured = loadConfig({ PALAVER_GRAPH_LOCAL_URL: 'http://gpu.lan', PALAVER_GRAPH_LOCAL_PORTS: '11434, 8000' });
    expect(configured.graph).toMatchObject({ localUrl: 'http://gpu.lan', localPorts: [11434, 8000] });
    expect(() => loadConfig({ PALAVER_GRAPH_LOCAL_PORTS: '11434,x' })).toThrow(/graph\.localPorts/);
  });
});

describe('LocalLLM: a local OpenAI-compatible server (fake, speaking the protocol)', () => {
  let upstream: FakeOpenAiUpstream;
  let port: number;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    port = Number(new URL(upstream.baseUrl).port);
  });

  afterAll(async () => {
    await upstream?.close();
  });

  const context = [textContextMessage('system', 'Be brief.'), textContextMessage('user', 'Say hello.')];

  it("answers the context with the server at the local host and the node's port: /v1/chat/completions, streamed, the model named", async () => {
    const document = graphOf([{ id: 'llm', type: 'LocalLLM', values: { port, model: 'llama3.2', context } }]);
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
    const run = runGraph(document, { engines: { localServers: { url: 'http://127.0.0.1', ports: [port] } } });
    try {
      const streams = run.record('llm.text_stream');
      const messages = run.record('llm.context_message');
      const finished = run.record('llm.finished');
      const before = upstream.requests.length;
      sink(run, 'llm.run_trigger').receive(TRIGGER);
      await eventually(() => expect(finished).toHaveLength(1), 10_000);
      const request = upstream.requests[before]!;
      expect(request.url).toBe('/v1/chat/completions');
      expect(request.body).toMatchObject({
        model: 'llama3.2',
        stream: true,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Say hello.' },
        ],
      });
      expect((streams[0] as TextStream).text()).toBe('Hello from the fake upstream.');
      expect(messages).toHaveLength(1);
      expect(run.failures).toEqual([]);
    } finally {
      await run.stop();
    }
  });

  it('a port the operator did not allow fails the node naming the port; a link-local host is refused by the outbound guard', async () => {
    const refusedPort = runGraph(graphOf([{ id: 'llm', type: 'LocalLLM', values: { port, context } }]), {
      engines: { localServers: { url: 'http://127.0.0.1', ports: [7002] } },
    });
    await eventually(() => expect(refusedPort.failures.map((failure) => failure.node)).toEqual(['llm']));
    expect(refusedPort.logs.find((entry) => entry.level === 'error')).toMatchObject({
      node: 'llm',
      pad: 'port',
      message: expect.stringMatching(/port \d+ is not a local server port/),
    });
    await refusedPort.stop();

    const linkLocal = runGraph(graphOf([{ id: 'llm', type: 'LocalLLM', values: { port: 80, context } }]), {
      engines: { localServers: { url: 'http://169.254.169.254', ports: [80] } },
    });
    try {
      const before = upstream.requests.length;
      sink(linkLocal, 'llm.run_trigger').receive(TRIGGER);
      await eventually(() => expect(linkLocal.logs.some((entry) => entry.level === 'error' && /169\.254\.169\.254/.test(entry.message))).toBe(true), 10_000);
      expect(upstream.requests.length).toBe(before);
    } finally {
      await linkLocal.stop();
    }
  });

  it("in an app run: the server's PALAVER_GRAPH_LOCAL_PORTS reach the run's LocalLLM", async () => {
    const test = await startTestServer('sqlite', { config: { graph: { localPorts: [port] } } });
    try {
      await test.server.listen(0, '127.0.0.1');
      const graph = graphOf(
        [
          { id: 'button', type: 'ButtonTrigger' },
          { id: 'llm', type: 'LocalLLM', values: { port, model: 'llama3.2', context } },
        ],
        [{ from: 'button.trigger', to: 'llm.run_trigger' }],
      );
      const run = await test.client.appRuns.createFromGraph({ graph });
      const human = await HumanParticipant.join(test.server.services.media.transport, run.app_run.id, 'human-local-llm');
      await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
      const before = upstream.requests.length;
      await test.client.appRuns.pushPadValue(run.app_run.id, { node: 'button', pad: 'trigger', value: { type: 'boolean', value: true } });
      await eventually(() => expect(upstream.requests.length).toBe(before + 1), 10_000);
      expect(upstream.requests[before]).toMatchObject({ url: '/v1/chat/completions', body: { model: 'llama3.2' } });
      await human.leave();
    } finally {
      await test.close();
    }
  }, 30_000);

  it('refuses a max_context_len under 4096, naming node and pad', () => {
    const problems = validateGraph(graphOf([{ id: 'llm', type: 'LocalLLM', values: { max_context_len: 1000 } }]), new Map(), platformNodeLibrary);
    expect(JSON.stringify(problems)).toMatch(/llm.*max_context_len|max_context_len.*llm/);
  });
});

describe('LocalSTT: the engine local speech server protocol (fake server)', () => {
  let server: FakeLocalSpeechServer;

  beforeAll(async () => {
    server = await startFakeLocalSpeechServer(['hello local server', 'and again']);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('streams 16 kHz audio in 100 ms pieces; the server decides the turn: started, is_speaking, final transcription, clip, ended', async () => {
    const document = graphOf([{ id: 'stt', type: 'LocalSTT', values: { port: server.port } }]);
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
    const run = runGraph(document, { engines: { localServers: { url: 'http://127.0.0.1', ports: [server.port] } } });
    try {
      const started = run.record('stt.speech_started');
      const ended = run.record('stt.speech_ended');
      const finals = run.record('stt.final_transcription');
      const clips = run.record('stt.speech_clip');
      const speaking = run.record('stt.is_speaking');
      await eventually(() => expect(server.sessions).toHaveLength(1));
      await play(run, 'stt.audio', [...frames(200, false), ...frames(600, true), ...frames(500, false)]);
      await eventually(() => expect(ended).toHaveLength(1), 10_000);
      expect(server.sessions[0]!.start).toEqual({ sample_rate: 16_000, stt_enabled: true, lipsync_enabled: false });
      expect(new Set(server.sessions[0]!.chunkBytes)).toEqual(new Set([3200]));
      expect(started).toHaveLength(1);
      expect(finals).toEqual(['hello local server']);
      expect(speaking).toEqual([true, false]);
      const clip = clips[0] as AudioClip;
      expect(clip.transcription).toBe('hello local server');
      expect(clip.sampleRate).toBe(16_000);
      // The clip is the server's sample range: from the first loud piece to the end of the third quiet one.
      expect(clip.duration).toBeGreaterThanOrEqual(0.8);
      expect(clip.duration).toBeLessThanOrEqual(1.0);
      expect(run.failures).toEqual([]);
    } finally {
      await run.stop();
    }
    await eventually(() => expect(server.sessions[0]!.ended).toBe(true));
  });

  it('audio that comes while the connection opens is kept and sent once it is open', async () => {
    const run = runGraph(graphOf([{ id: 'stt', type: 'LocalSTT', values: { port: server.port } }]), {
      engines: { localServers: { url: 'http://127.0.0.1', ports: [server.port] } },
    });
    try {
      const sessions = server.sessions.length;
      const finals = run.record('stt.final_transcription');
      // At once: the socket is not open yet.
      for (const samples of [...frames(600, true), ...frames(400, false)])
        sink(run, 'stt.audio').receive({ kind: 'runtime:audio', frame: { samples, sampleRate: 48_000, channels: 1 }, origin: 'human' });
      await eventually(() => expect(finals).toEqual(['and again']), 10_000);
      expect(server.sessions[sessions]!.samples).toBe(16_000);
    } finally {
      await run.stop();
    }
  });

  it('a server that is not there is told on the log naming the port; the node keeps trying', async () => {
    const closed = await startFakeLocalSpeechServer([]);
    const port = closed.port;
    await closed.close();
    const run = runGraph(graphOf([{ id: 'stt', type: 'LocalSTT', values: { port } }]), {
      engines: { localServers: { url: 'http://127.0.0.1', ports: [port] } },
    });
    try {
      await eventually(
        () =>
          expect(run.logs.find((entry) => entry.level === 'error')).toMatchObject({ node: 'stt', pad: 'port', message: expect.stringMatching(/ECONNREFUSED/) }),
        5_000,
      );
      expect(run.failures).toEqual([]);
    } finally {
      await run.stop();
    }
  });
});
