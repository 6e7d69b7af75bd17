import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphDocument } from '../../../contract/graph/graph-document.js';
import { TRIGGER, textContextMessage } from '../../../contract/graph/pad-values.js';
import { startFakeLocalSpeechServer, type FakeLocalSpeechServer } from '../../../testing/fake-local-speech-server.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../../testing/fake-openai-upstream.js';
import { runGraph } from '../../../testing/graph-kit.js';
import { eventually } from '../../../testing/media-test-support.js';
import { speechConfigFrom } from '../../domain/voices/platform-speech.js';
import { createSpeech, type Speech } from '../../engines/speech/index.js';
import { loadConfig } from '../../kernel/config.js';
import { platformNodeLibrary } from '../library/node-library.js';
import { RuntimeSinkPad } from '../runtime/pads.js';
import { validateGraph } from './validate-graph.js';

/**
 * A graph in the open engine's export format with its pads as the engine writes them: two Publish nodes into a
 * MultiParticipantSTT (the engine's `assembly_ai` service, its enum states), a LocalSTT, an LLMContext answered by a
 * LocalLLM (port 7002, no `model` pad), spoken by TTS through LocalViseme (port 7004) to Output, the visemes to
 * VisemeDebug.
 */
const exported = JSON.parse(readFileSync(new URL('./fixtures/exported-local-and-visemes.json', import.meta.url), 'utf8')) as { graph: unknown };

/** The exported graph with its local nodes' ports moved to the test's fake servers. */
function withPorts(ports: { llm: number; speech: number }): GraphDocument {
  const document = GraphDocument.parse(exported.graph);
  for (const node of document.nodes) {
    const port = node.pads.find((pad) => pad.id === 'port');
    if (port) port.value = { type: 'integer', value: node.type === 'LocalLLM' ? ports.llm : ports.speech };
  }
  return document;
}

describe('an exported engine graph with MultiParticipantSTT, LocalLLM, LocalSTT, LocalViseme and VisemeDebug', () => {
  let upstream: FakeOpenAiUpstream;
  let server: FakeLocalSpeechServer;
  let speech: Speech;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    server = await startFakeLocalSpeechServer(['hello']);
    speech = createSpeech(speechConfigFrom(loadConfig({}).speech));
  });

  afterAll(async () => {
    await upstream?.close();
    await server?.close();
    await speech?.close();
  });

  it('validates as exported', () => {
    const document = GraphDocument.parse(exported.graph);
    expect(new Set(document.nodes.map((node) => node.type))).toEqual(
      new Set(['Publish', 'MultiParticipantSTT', 'LocalSTT', 'CreateContextMessage', 'LLMContext', 'LocalLLM', 'TTS', 'LocalViseme', 'VisemeDebug', 'Output']),
    );
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
  });

  it('runs: the local LLM answers the context, the answer is spoken with visemes; the floor and the local STT session are there', async () => {
    const ports = { llm: Number(new URL(upstream.baseUrl).port), speech: server.port };
    const run = runGraph(withPorts(ports), { engines: { speech, localServers: { url: 'http://127.0.0.1', ports: [ports.llm, ports.speech] } } });
    try {
      const insert = run.pad('llmcontext_1e2f.insert_0');
      const trigger = run.pad('localllm_3a4b.run_trigger');
      const force = run.pad('multiparticipantstt_5e6f.force_ai_talk');
      if (!(insert instanceof RuntimeSinkPad) || !(trigger instanceof RuntimeSinkPad) || !(force instanceof RuntimeSinkPad)) throw new Error('not sinks');
      expect(run.pad('multiparticipantstt_5e6f.current_state')).toMatchObject({ value: 'WAITING_FOR_HUMAN' });
      const before = upstream.requests.length;
      insert.receive(textContextMessage('user', 'Say hello.'));
      trigger.receive(TRIGGER);
      const debug = () => run.logs.filter((entry) => entry.node === 'visemedebug_9a0b').map((entry) => entry.message);
      // "Hello from the fake upstream." in visemes, ending silent.
      await eventually(() => expect(debug().length).toBeGreaterThan(10), 20_000);
      await eventually(() => expect(debug().at(-1)).toBe('Viseme Frame: SILENCE'), 10_000);
      expect(debug()).toContain('Viseme Frame: FF');
      expect(upstream.requests[before]).toMatchObject({ url: '/v1/chat/completions' });
      force.receive(TRIGGER);
      expect(run.pad('multiparticipantstt_5e6f.current_state')).toMatchObject({ value: 'AI_CAN_TALK' });
      await eventually(() => expect(server.sessions.some((session) => session.start.stt_enabled)).toBe(true));
      expect(run.failures).toEqual([]);
    } finally {
      await run.stop();
    }
  }, 30_000);
});
