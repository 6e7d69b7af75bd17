import { describe, expect, it } from 'vitest';
import { RealtimeClientEvent } from '../../../contract/openai-realtime-events.js';
import type { RealtimeSessionUpdate } from '../../../contract/openai-realtime-session.js';
import { initialSession, updatedSession } from '../../domain/openai-realtime/realtime-session-config.js';
import { BETA_DIALECT } from './beta-dialect.js';

describe('the beta dialect of the Realtime API', () => {
  it('reads a beta session.update as the GA one the contract takes', () => {
    const event = BETA_DIALECT.incoming({
      type: 'session.update',
      session: {
        modalities: ['text', 'audio'],
        voice: 'flite-slt',
        input_audio_format: 'pcm16',
        output_audio_format: 'pcm16',
        input_audio_transcription: { model: 'whisper-1' },
        turn_detection: { type: 'server_vad', silence_duration_ms: 500 },
        max_response_output_tokens: 'inf',
        instructions: 'Be brief.',
      },
    });
    expect(RealtimeClientEvent.parse(event)).toEqual({
      type: 'session.update',
      session: {
        type: 'realtime',
        output_modalities: ['audio'],
        max_output_tokens: 'inf',
        instructions: 'Be brief.',
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: 24_000 },
            transcription: { model: 'whisper-1' },
            turn_detection: { type: 'server_vad', silence_duration_ms: 500 },
          },
          output: { format: { type: 'audio/pcm', rate: 24_000 }, voice: 'flite-slt' },
        },
      },
    });
  });

  it('takes the G.711 formats by their beta names and reports them so', () => {
    const event = BETA_DIALECT.incoming({ type: 'session.update', session: { input_audio_format: 'g711_ulaw', output_audio_format: 'g711_alaw' } });
    const update = RealtimeClientEvent.parse(event);
    expect(update).toMatchObject({ session: { audio: { input: { format: { type: 'audio/pcmu' } }, output: { format: { type: 'audio/pcma' } } } } });
    const session = updatedSession(initialSession('sess_1', 'builtin-offline', 'flite-slt', 0), (update as { session: RealtimeSessionUpdate }).session);
    expect(BETA_DIALECT.outgoing({ type: 'session.updated', event_id: 'e', session })).toMatchObject({
      session: { input_audio_format: 'g711_ulaw', output_audio_format: 'g711_alaw' },
    });
  });

  it('keeps a beta field without a GA meaning, so the contract names it', () => {
    const parsed = RealtimeClientEvent.safeParse(BETA_DIALECT.incoming({ type: 'session.update', session: { temperature: 0.7 } }));
    expect(parsed.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['temperature'], path: ['session'] });
  });

  it('writes GA events with the beta names and content types; conversation.item.done has no beta twin', () => {
    const item = { id: 'item_1', object: 'realtime.item' as const, type: 'message' as const, status: 'completed' as const, role: 'assistant' as const };
    expect(
      BETA_DIALECT.outgoing({
        type: 'response.output_audio.delta',
        event_id: 'e',
        response_id: 'r',
        item_id: 'i',
        output_index: 0,
        content_index: 0,
        delta: 'AA==',
      }),
    ).toMatchObject({
      type: 'response.audio.delta',
    });
    expect(
      BETA_DIALECT.outgoing({
        type: 'conversation.item.added',
        event_id: 'e',
        previous_item_id: null,
        item: { ...item, content: [{ type: 'output_text', text: 'Hi' }] },
      }),
    ).toMatchObject({ type: 'conversation.item.created', item: { content: [{ type: 'text', text: 'Hi' }] } });
    expect(BETA_DIALECT.outgoing({ type: 'conversation.item.done', event_id: 'e', previous_item_id: null, item })).toBeUndefined();
  });
});
