import { AgentSpeaker, FALLBACK_VOICE, SessionSpeech, type SessionVoice } from '../../../voice/index.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';
import { isTextStream } from '../../runtime/stream-values.js';
import { PacedPadOutput } from '../media/paced-pad-output.js';

const OUTPUT_RATE = 48_000;
const DEFAULT_VOICE: SessionVoice = { id: 'flite-slt', selection: FALLBACK_VOICE };

function voiceIdOf(node: RuntimeNode): string | undefined {
  const requested = node.value('voice_id');
  return typeof requested === 'string' && requested !== '' ? requested : undefined;
}

/** The node's `voice_id` as the run's human may use it; the default voice (with a warning) when it cannot be used. */
async function resolveVoice(node: RuntimeNode): Promise<SessionVoice> {
  const { voices } = node.environment.engines;
  const voiceId = voiceIdOf(node);
  if (!voices) return DEFAULT_VOICE;
  try {
    const voice = await voices.resolveVoice(node.environment.principal, voiceId);
    return { id: voice.id, selection: voice };
  } catch (error) {
    node.log(
      'warning',
      `voice '${voiceId ?? 'default'}' cannot be used (${error instanceof Error ? error.message : String(error)}): speaking with the default voice`,
      'voice_id',
    );
    return DEFAULT_VOICE;
  }
}

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

/**
 * TTS: speaks each text that arrives (a text stream as it is written, or a string), one after the other,
 * with the voice pipeline's speaker (clause by clause, paced to playback). `cancel_trigger` stops the one being
 * spoken, drops those waiting and flushes the audio downstream. Speech is metered as `voice_synthesis_seconds`
 * of the run's human; the first audio and the end of each answer close the run's voice turn.
 */
export const ttsNode: NodeImplementation = async (node, signal) => {
  const { environment } = node;
  const output = new PacedPadOutput(node.source('audio'), node.id);
  const speaker = new AgentSpeaker(environment.engines.speech.tts, output, OUTPUT_RATE, environment.logger);
  const speech = new SessionSpeech({
    tts: environment.engines.speech.tts,
    voices: environment.engines.voices,
    principal: environment.principal,
    choice: () => ({ key: voiceIdOf(node) ?? '', resolve: () => resolveVoice(node) }),
    usage: { app_run: environment.runId, node: node.id },
    logger: environment.logger,
  });
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
      const voice = await speech.voice();
      const refusal = await speech.refusal();
      if (refusal) {
        node.log('error', `not spoken: ${refusal.message}`);
        environment.nodeFailed(node, new Error(refusal.message));
        continue;
      }
      if (generation !== startedIn || signal.aborted) continue;
      current = new AbortController();
      const spoken = await speaker.speak({
        text,
        voice: voice.selection,
        signal: current.signal,
        onStart: () => environment.voiceTurns.firstAudio(),
        onProgress: () => undefined,
      });
      current = undefined;
      environment.voiceTurns.spoken(spoken.interrupted, spoken.ttsFirstAudioMs);
      if (spoken.text !== '') node.source('complete_transcription').push(spoken.text);
      speech.record(voice, spoken.audioSeconds);
    }
  } finally {
    await output.close();
  }
};
