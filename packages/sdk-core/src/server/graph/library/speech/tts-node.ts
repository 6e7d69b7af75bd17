import { AgentSpeaker } from '../../../voice/speaker/agent-speaker.js';
import { FALLBACK_VOICE } from '../../../voice/speaker/agent-voice.js';
import type { VoiceSelection } from '../../../engines/speech/index.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';
import { isTextStream } from '../../runtime/stream-values.js';
import { PacedPadOutput } from '../media/paced-pad-output.js';

const OUTPUT_RATE = 48_000;

async function resolveVoice(node: RuntimeNode): Promise<{ id: string; selection: VoiceSelection }> {
  const { voices } = node.environment.engines;
  const requested = node.value('voice_id');
  const voiceId = typeof requested === 'string' && requested !== '' ? requested : undefined;
  if (!voices) return { id: 'flite-slt', selection: FALLBACK_VOICE };
  try {
    const voice = await voices.resolveVoice(node.environment.principal, voiceId);
    return { id: voice.id, selection: voice };
  } catch (error) {
    node.log(
      'warning',
      `voice '${voiceId ?? 'default'}' cannot be used (${error instanceof Error ? error.message : String(error)}): speaking with the default voice`,
      'voice_id',
    );
    return { id: 'flite-slt', selection: FALLBACK_VOICE };
  }
}

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

/**
 * TTS: speaks each text that arrives (a text stream as it is written, or a string), one after the other,
 * with the agent's speaker (clause by clause, paced to playback). `cancel_trigger` stops the one being
 * spoken, drops those waiting and flushes the audio downstream. Speech is metered as
 * `voice_synthesis_seconds` of the run's human.
 */
export const ttsNode: NodeImplementation = async (node, signal) => {
  const { environment } = node;
  const output = new PacedPadOutput(node.source('audio'), node.id);
  const speaker = new AgentSpeaker(environment.engines.speech.tts, output, OUTPUT_RATE, environment.logger);
  let current: AbortController | undefined;
  let generation = 0;
  node.sink('cancel_trigger').onValue(() => {
    generation += 1;
    current?.abort();
    output.flush();
  });
  // The generation each text arrived in: a text that waited while a cancel came is dropped with it.
  const arrivals: number[] = [];
  node.sink('text').onValue(() => arrivals.push(generation));
  signal.addEventListener('abort', () => current?.abort(), { once: true });
  try {
    for await (const value of node.sink('text')) {
      if (signal.aborted) break;
      const startedIn = arrivals.shift() ?? generation;
      if (startedIn !== generation) continue;
      const text = isTextStream(value) ? value : typeof value === 'string' ? once(value) : undefined;
      if (!text) {
        node.log('warning', 'ignored a value that is not text', 'text');
        continue;
      }
      if (isTextStream(value) && value.wasCancelled) continue;
      const voice = await resolveVoice(node);
      try {
        await environment.engines.voices?.assertWithinLimit?.(environment.principal);
      } catch (error) {
        node.log('error', `not spoken: ${error instanceof Error ? error.message : String(error)}`);
        environment.nodeFailed(node, error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (generation !== startedIn || signal.aborted) continue;
      current = new AbortController();
      const spoken = await speaker.speak({ text, voice: voice.selection, signal: current.signal, onProgress: () => undefined });
      current = undefined;
      if (spoken.text !== '') node.source('complete_transcription').push(spoken.text);
      if (spoken.audioSeconds > 0) {
        await environment.engines.voices
          ?.recordUsage?.(environment.principal, spoken.audioSeconds, { app_run: environment.runId, node: node.id, voice: voice.id })
          .catch((error: unknown) => node.log('error', `speech usage was not recorded: ${error instanceof Error ? error.message : String(error)}`));
      }
    }
  } finally {
    await output.close();
  }
};
