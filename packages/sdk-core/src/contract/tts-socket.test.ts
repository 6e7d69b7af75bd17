import { describe, expect, it } from 'vitest';
import { TtsClientMessage, TtsServiceMessage } from './tts-socket.js';

describe('TTS socket client messages', () => {
  it('parses each message type', () => {
    expect(TtsClientMessage.parse({ type: 'start_session', session: 's1', payload: { voice: 'flite-slt' } })).toEqual({
      type: 'start_session',
      session: 's1',
      payload: { voice: 'flite-slt' },
    });
    const push = TtsClientMessage.parse({ type: 'push_text', session: 's1', payload: { text: 'Hello there.' } });
    expect(push.type === 'push_text' && push.payload.text).toBe('Hello there.');
    expect(TtsClientMessage.parse({ type: 'eos', session: 's1', payload: {} })).toEqual({ type: 'eos', session: 's1', payload: {} });
  });

  it('rejects unknown types, missing fields and payloads of another type', () => {
    const invalid: unknown[] = [
      { type: 'speak', session: 's1', payload: { text: 'x' } },
      { type: 'push_text', payload: { text: 'x' } },
      { type: 'push_text', session: '', payload: { text: 'x' } },
      { type: 'push_text', session: 's1', payload: { voice: 'flite-slt' } },
      { type: 'start_session', session: 's1', payload: {} },
      { type: 'start_session', session: 's1', payload: { voice: '' } },
      { type: 'eos', session: 's1' },
      'eos',
      null,
    ];
    for (const message of invalid) expect(TtsClientMessage.safeParse(message).success, JSON.stringify(message)).toBe(false);
  });
});

describe('TTS socket service messages', () => {
  const audio = {
    type: 'audio',
    session: 's1',
    payload: { audio: btoa(String.fromCharCode(1, 0, 255, 127)), sample_rate: 16000, channels: 1, audio_format: 'pcm16le', encoding: 'pcm' },
  };

  it('parses audio, final and error messages', () => {
    const parsed = TtsServiceMessage.parse(audio);
    expect(parsed.type).toBe('audio');
    if (parsed.type === 'audio') expect(parsed.payload).toEqual(audio.payload);
    expect(TtsServiceMessage.parse({ type: 'final', session: 's1', payload: {} }).type).toBe('final');
    const error = TtsServiceMessage.parse({ type: 'error', session: 's1', payload: { message: 'unknown voice' } });
    expect(error.type === 'error' && error.payload.message).toBe('unknown voice');
  });

  it('rejects malformed audio and error payloads', () => {
    const withPayload = (payload: Record<string, unknown>) => ({ ...audio, payload: { ...audio.payload, ...payload } });
    const invalid: unknown[] = [
      withPayload({ sample_rate: 16000.5 }),
      withPayload({ sample_rate: 0 }),
      withPayload({ channels: -1 }),
      withPayload({ audio_format: 'f32le' }),
      withPayload({ encoding: 'mp3' }),
      withPayload({ audio: 'not base64!' }),
      withPayload({ audio: undefined }),
      { type: 'error', session: 's1', payload: {} },
      { type: 'push_text', session: 's1', payload: { text: 'x' } },
    ];
    for (const message of invalid) expect(TtsServiceMessage.safeParse(message).success, JSON.stringify(message)).toBe(false);
  });
});
