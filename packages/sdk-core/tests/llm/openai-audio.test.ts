import OpenAI, { toFile } from 'openai';
import { Stream } from 'openai/streaming';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptionVerbose } from '../../src/contract/audio.js';
import { decodeMp3, looksLikeMp3 } from '../../src/server/engines/speech/codecs/mp3.js';
import { decodeOgg } from '../../src/server/engines/speech/codecs/ogg.js';
import { decodeWav } from '../../src/server/engines/speech/codecs/wav.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { createTestPlatform, type TestPlatform } from '../../src/testing.js';
import { ffmpegAvailable, runFfmpeg } from '../../src/server/engines/media/ffmpeg/run-ffmpeg.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { convertWav, ffmpegPresent } from '../support/ffmpeg-audio-files.js';

/** OpenAI's speech events (`stream_format: sse`); the package gives them no type. */
interface SpeechEvent {
  type: 'speech.audio.delta' | 'speech.audio.done';
  audio?: string;
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number };
}

const sttAvailable = pocketsphinxAvailable();
const SENTENCE = 'Please call me tomorrow morning.';
const TWO_SENTENCES = 'Please call me tomorrow morning. The weather will be sunny and warm.';

/**
 * OpenAI's audio endpoints with the `openai` package against a real test platform: `audio.speech.create` in each
 * format the platform makes (the bytes decoded, not only their headers), streamed; `audio.transcriptions.create` of
 * Flite speech in json, text and verbose_json.
 */
describe('OpenAI audio endpoints (openai package)', () => {
  let platform: TestPlatform;
  let openai: OpenAI;

  beforeAll(async () => {
    platform = await createTestPlatform();
    const baseUrl = await platform.server.listen(0, '127.0.0.1');
    openai = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: platform.server.apiKey, defaultHeaders: { 'x-api-key': platform.server.apiKey }, maxRetries: 0 });
  });
  afterAll(async () => {
    await platform.close();
  });

  const speak = async (input: string, response_format: 'mp3' | 'wav' | 'opus' | 'pcm') => {
    const response = await openai.audio.speech.create({ model: 'tts-1', voice: 'flite-slt', input, response_format });
    return { contentType: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
  };

  describe('audio.speech.create', () => {
    it('makes WAV with a valid header and the whole of the speech', async () => {
      const { contentType, bytes } = await speak(SENTENCE, 'wav');
      expect(contentType).toBe('audio/wav');
      expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('RIFF');
      expect(new TextDecoder().decode(bytes.subarray(8, 12))).toBe('WAVE');
      const wav = decodeWav(bytes);
      expect(wav.pcm.length / wav.sampleRate).toBeGreaterThan(1);
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true)).toBe(bytes.length - 8);
    });

    it('makes MP3, Ogg Opus and 24 kHz PCM of the same length of speech as the WAV', async () => {
      const wav = decodeWav((await speak(SENTENCE, 'wav')).bytes);
      const seconds = wav.pcm.length / wav.sampleRate;

      const mp3 = await speak(SENTENCE, 'mp3');
      expect(mp3.contentType).toBe('audio/mpeg');
      expect(looksLikeMp3(mp3.bytes)).toBe(true);
      const mp3Audio = await decodeMp3(mp3.bytes);
      // MP3 adds its encoder's delay and pads the last frame (about 0.1 s).
      expect(Math.abs(mp3Audio.pcm.length / mp3Audio.sampleRate - seconds)).toBeLessThan(0.15);

      const opus = await speak(SENTENCE, 'opus');
      expect(opus.contentType).toBe('audio/ogg; codecs=opus');
      expect(new TextDecoder().decode(opus.bytes.subarray(0, 4))).toBe('OggS');
      expect(new TextDecoder().decode(opus.bytes.subarray(28, 36))).toBe('OpusHead');
      const ogg = await decodeOgg(opus.bytes);
      expect(ogg.codec).toBe('opus');
      expect(ogg.errorCount).toBe(0);
      expect(Math.abs(ogg.pcm.length / ogg.sampleRate - seconds)).toBeLessThan(0.05);

      const pcm = await speak(SENTENCE, 'pcm');
      expect(pcm.contentType).toBe('audio/pcm');
      expect(pcm.bytes.length % 2).toBe(0);
      expect(Math.abs(pcm.bytes.length / 2 / 24_000 - seconds)).toBeLessThan(0.01);
    });

    it.skipIf(!sttAvailable).each(['mp3', 'wav', 'opus'] as const)('speaks the text: %s transcribes back to it', async (format) => {
      const { bytes } = await speak(SENTENCE, format);
      const transcript = await openai.audio.transcriptions.create({
        file: await toFile(bytes, `speech.${format === 'opus' ? 'ogg' : format}`),
        model: 'whisper-1',
      });
      expect(wordErrorRate(SENTENCE, transcript.text), `${format}: ${transcript.text}`).toBeLessThan(0.2);
    });

    it('streams the audio as it is made: chunked, no length, several reads', async () => {
      const response = await openai.audio.speech.create({ model: 'tts-1', voice: 'flite-slt', input: TWO_SENTENCES.repeat(3), response_format: 'pcm' });
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      const reader = response.body!.getReader();
      let reads = 0;
      let bytes = 0;
      for (let result = await reader.read(); !result.done; result = await reader.read()) {
        reads += 1;
        bytes += result.value.length;
      }
      expect(reads).toBeGreaterThan(1);
      expect(bytes / 2 / 24_000).toBeGreaterThan(5);
    });

    it('streams OpenAI speech events with stream_format sse: base64 deltas as it speaks, then done with usage', async () => {
      const response = await openai.audio.speech.create({
        model: 'tts-1',
        voice: 'flite-slt',
        input: TWO_SENTENCES,
        response_format: 'pcm',
        stream_format: 'sse',
      });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events: SpeechEvent[] = [];
      for await (const event of Stream.fromSSEResponse<SpeechEvent>(response, new AbortController())) events.push(event);
      const deltas = events.filter((event) => event.type === 'speech.audio.delta');
      expect(deltas.length).toBeGreaterThan(1);
      expect(events.at(-1)).toEqual({
        type: 'speech.audio.done',
        usage: { input_tokens: expect.any(Number), output_tokens: 0, total_tokens: expect.any(Number) },
      });
      expect(events.filter((event) => event.type === 'speech.audio.done')).toHaveLength(1);
      const pcm = Buffer.concat(deltas.map((event) => Buffer.from(event.audio!, 'base64')));
      const whole = new Uint8Array(
        await (await openai.audio.speech.create({ model: 'tts-1', voice: 'flite-slt', input: TWO_SENTENCES, response_format: 'pcm' })).arrayBuffer(),
      );
      expect(pcm.length).toBe(whole.length);
    });

    it.each([
      ['flite-slt', 'flite'],
      ['espeak-en-gb', 'espeak-ng'],
    ])('speaks faster and slower with speed (%s, %s)', async (voice) => {
      const seconds = async (speed: number) =>
        (await (await openai.audio.speech.create({ model: 'tts-1', voice, input: TWO_SENTENCES, response_format: 'pcm', speed })).arrayBuffer()).byteLength /
        48_000;
      const normal = await seconds(1);
      expect(await seconds(2)).toBeLessThan(normal * 0.75);
      expect(await seconds(0.5)).toBeGreaterThan(normal * 1.4);
    });

    it.skipIf(!ffmpegPresent()).each([
      ['aac', 'audio/aac', 'aac'],
      ['flac', 'audio/flac', 'flac'],
    ] as const)('makes %s through ffmpeg, decodable to the same length of speech as the WAV', async (format, contentType, demuxer) => {
      const wav = decodeWav((await speak(SENTENCE, 'wav')).bytes);
      const response = await openai.audio.speech.create({ model: 'tts-1', voice: 'flite-slt', input: SENTENCE, response_format: format });
      expect(response.headers.get('content-type')).toBe(contentType);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (format === 'flac') expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('fLaC');
      else expect([bytes[0], bytes[1]! & 0xf0]).toEqual([0xff, 0xf0]);
      const pcm = await runFfmpeg({
        args: ['-f', demuxer, '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', String(wav.sampleRate), 'pipe:1'],
        input: [bytes],
      });
      // AAC adds its encoder's priming and pads its last frame (1024 samples).
      expect(Math.abs(pcm.length / 2 - wav.pcm.length) / wav.sampleRate).toBeLessThan(format === 'flac' ? 0.001 : 0.15);
    });

    it.each([
      ['instructions', { instructions: 'Speak cheerfully.' }],
      ['voice', { voice: 'alloy' }],
      ['input', { input: '...' }],
    ])('refuses what it cannot honour with 400 naming the field (%s)', async (field, extra) => {
      const refused = openai.audio.speech.create({ model: 'tts-1', voice: 'flite-slt', input: 'Hello.', ...extra });
      await expect(refused).rejects.toBeInstanceOf(OpenAI.BadRequestError);
      await expect(refused).rejects.toMatchObject({ message: expect.stringContaining(`${field}:`) as unknown });
    });
  });

  describe.skipIf(!sttAvailable)('audio.transcriptions.create (Flite speech)', () => {
    let wav: Uint8Array;
    beforeAll(async () => {
      wav = (await speak(TWO_SENTENCES, 'wav')).bytes;
    });
    const file = () => toFile(wav, 'speech.wav', { type: 'audio/wav' });

    it('answers json {text} and text', async () => {
      const json = await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'json' });
      expect(wordErrorRate(TWO_SENTENCES, json.text), json.text).toBeLessThan(0.25);
      const text = await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'text' });
      expect(typeof text).toBe('string');
      expect(text.trim()).toBe(json.text);
    });

    it('answers verbose_json with a segment per sentence and timed words', async () => {
      const verbose = await openai.audio.transcriptions.create({
        file: await file(),
        model: 'whisper-1',
        response_format: 'verbose_json',
        timestamp_granularities: ['segment', 'word'],
      });
      expect(TranscriptionVerbose.parse(verbose)).toMatchObject({ task: 'transcribe' });
      const decoded = decodeWav(wav);
      expect(verbose.duration).toBeCloseTo(decoded.pcm.length / decoded.sampleRate, 2);
      const segments = verbose.segments!;
      expect(segments).toHaveLength(2);
      expect(segments[0]!.end).toBeLessThanOrEqual(segments[1]!.start);
      expect(segments.map((segment) => segment.text).join(' ')).toBe(verbose.text);
      expect(wordErrorRate('The weather will be sunny and warm.', segments[1]!.text), segments[1]!.text).toBeLessThan(0.3);
      const words = verbose.words!;
      expect(words.map((word) => word.word).join(' ')).toBe(verbose.text);
      for (const [index, word] of words.entries()) {
        expect(word.end).toBeGreaterThan(word.start);
        if (index > 0) expect(word.start).toBeGreaterThanOrEqual(words[index - 1]!.end - 0.001);
      }
      expect(words[0]!.start).toBeCloseTo(segments[0]!.start, 2);
      expect(words.at(-1)!.end).toBeCloseTo(segments[1]!.end, 2);
    });

    it('answers srt and vtt cues per segment', async () => {
      const srt = await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'srt' });
      expect(srt).toMatch(/^1\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\n.+\n\n2\n/);
      const vtt = await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'vtt' });
      expect(vtt).toMatch(/^WEBVTT\n\n00:00:\d\d\.\d{3} --> /);
    });

    it.each([
      ['prompt', { prompt: 'Names: Palaver.' }],
      ['temperature', { temperature: 0.4 }],
      ['response_format', { response_format: 'diarized_json' }],
      ['timestamp_granularities[]', { timestamp_granularities: ['word'] }],
      ['language', { language: 'fr' }],
      ['include[]', { include: ['logprobs'] }],
    ])('refuses what the engine cannot honour with 400 naming the field (%s)', async (field, extra) => {
      const refused = openai.audio.transcriptions.create({
        file: await file(),
        model: 'whisper-1',
        ...extra,
      } as OpenAI.Audio.TranscriptionCreateParamsNonStreaming);
      await expect(refused).rejects.toBeInstanceOf(OpenAI.BadRequestError);
      await expect(refused).rejects.toMatchObject({ message: expect.stringContaining(`${field}:`) as unknown });
    });

    it('refuses a file that is not audio, naming it', async () => {
      const refused = openai.audio.transcriptions.create({ file: await toFile(Buffer.from('not audio at all'), 'notes.txt'), model: 'whisper-1' });
      await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining('file:') as unknown });
    });

    it('streams transcript.text.delta events as segments are recognised, then transcript.text.done', async () => {
      const stream = await openai.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-transcribe', stream: true });
      const events: OpenAI.Audio.TranscriptionStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      const deltas = events.filter((event) => event.type === 'transcript.text.delta');
      expect(deltas).toHaveLength(2);
      const done = events.at(-1)!;
      expect(done.type).toBe('transcript.text.done');
      const text = (done as OpenAI.Audio.TranscriptionTextDoneEvent).text;
      expect(deltas.map((event) => event.delta).join('')).toBe(text);
      expect(wordErrorRate(TWO_SENTENCES, text), text).toBeLessThan(0.25);
      const whole = await openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1' });
      expect(text).toBe(whole.text);
    });

    it('refuses stream with a format answered whole, naming stream', async () => {
      const refused = openai.audio.transcriptions.create({ file: await file(), model: 'whisper-1', stream: true, response_format: 'srt' } as never);
      await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining('stream:') as unknown });
    });

    it('without ffmpeg, answers 400 naming the field for the formats it makes or decodes', async () => {
      const flac = ffmpegAvailable() ? await convertWav(wav, 'flac') : new TextEncoder().encode('fLaC and nothing more');
      const previous = process.env.PALAVER_FFMPEG;
      process.env.PALAVER_FFMPEG = '/nonexistent/palaver-ffmpeg';
      try {
        const speech = openai.audio.speech.create({ model: 'tts-1', voice: 'flite-slt', input: 'Hello.', response_format: 'flac' });
        await expect(speech).rejects.toMatchObject({
          status: 400,
          message: expect.stringMatching(/response_format: flac .*ffmpeg, which is not installed/) as unknown,
        });
        const transcription = openai.audio.transcriptions.create({ file: await toFile(flac, 'speech.flac'), model: 'whisper-1' });
        await expect(transcription).rejects.toMatchObject({
          status: 400,
          message: expect.stringMatching(/file: flac audio .*ffmpeg, which is not installed/) as unknown,
        });
      } finally {
        if (previous === undefined) delete process.env.PALAVER_FFMPEG;
        else process.env.PALAVER_FFMPEG = previous;
      }
    });

    describe.skipIf(!ffmpegPresent())('files decoded by ffmpeg', () => {
      it.each(['flac', 'm4a', 'mp4', 'webm'] as const)('transcribes %s as it transcribes the WAV', async (format) => {
        const converted = await convertWav(wav, format);
        const transcript = await openai.audio.transcriptions.create({ file: await toFile(converted, `speech.${format}`), model: 'whisper-1' });
        expect(wordErrorRate(TWO_SENTENCES, transcript.text), `${format}: ${transcript.text}`).toBeLessThan(0.25);
      });

      it('refuses a file in a known container that does not decode, naming file', async () => {
        const flac = await convertWav(wav, 'flac');
        const broken = new Uint8Array(flac.subarray(0, 200));
        broken.fill(0x55, 42);
        const refused = openai.audio.transcriptions.create({ file: await toFile(broken, 'broken.flac'), model: 'whisper-1' });
        await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining('file:') as unknown });
      });
    });
  });
});
