import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, type PalaverClient } from '../../src/index.js';
import { PROFILE_EMBEDDING_LAYOUT } from '../../src/server/engines/speech/cloning/voice-profile.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { decodeAudio, medianPitch } from './speech-test-support.js';

const SAMPLE = 'The weather today is quite pleasant, and we plan to walk along the river before dinner. Tomorrow we will visit the museum.';

async function failure(promise: PromiseLike<unknown>): Promise<Error & { message: string; status?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe.each(await storeKinds())('POST /v1/voice/clone (%s)', (kind) => {
  let test: TestServer;
  let alice: PalaverClient;
  let bob: PalaverClient;

  const clonedCount = async () => (await test.client.voices.list({ tags: ['cloned'], page_size: 100 })).total_count;

  beforeAll(async () => {
    test = await startTestServer(kind);
    alice = test.clientWith({ usageToken: (await test.client.usage.createToken({ human: 'alice' })).token });
    bob = test.clientWith({ usageToken: (await test.client.usage.createToken({ human: 'bob' })).token });
  });
  afterAll(async () => test.close());

  it.each([
    ['a low male voice', 'flite-rms'],
    ['a female voice', 'flite-slt'],
  ])('clones %s from a generated MP3: generated speech matches its pitch within 10 %%', async (_label, source) => {
    const mp3 = await test.client.voices.generate({ text: SAMPLE, voice_id: source });
    expect(mp3.type).toBe('audio/mpeg');
    const sourceAudio = await decodeAudio(new Uint8Array(await mp3.arrayBuffer()), 'audio/mpeg');
    const sourcePitch = await medianPitch(sourceAudio.pcm, sourceAudio.sampleRate);

    const voice = await alice.voices.clone({ name: `Clone of ${source}`, language: 'en', file: new File([mp3], 'sample.mp3', { type: 'audio/mpeg' }) });
    expect(voice).toMatchObject({ name: `Clone of ${source}`, language: 'en', project: test.server.project, human: 'alice', service: 'espeak-ng' });
    expect(voice.tags.map((tag) => tag.name)).toContain('cloned');
    expect(voice.embeddings).toHaveLength(PROFILE_EMBEDDING_LAYOUT.length);
    expect(Math.abs(voice.embeddings![1]! - sourcePitch) / sourcePitch).toBeLessThan(0.05);
    expect(voice._extra).toMatchObject({ engine: 'espeak-ng', pitch: expect.any(Number), rate: expect.any(Number) });

    const cloned = await alice.voices.generate({ text: SAMPLE, voice_id: voice.id }, { headers: { accept: 'audio/wav' } });
    const clonedAudio = await decodeAudio(new Uint8Array(await cloned.arrayBuffer()), 'audio/wav');
    const clonedPitch = await medianPitch(clonedAudio.pcm, clonedAudio.sampleRate);
    expect(Math.abs(clonedPitch - sourcePitch) / sourcePitch).toBeLessThan(0.1);

    // Human scoping: Alice's clone is hers.
    expect(NotFoundError.isInstance(await failure(bob.voices.retrieve(voice.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failure(bob.voices.generate({ text: 'Hi.', voice_id: voice.id })))).toBe(true);
    expect((await alice.voices.retrieve(voice.id)).id).toBe(voice.id);
  });

  it('refuses not-MP3, empty, silent and too-large files with 400 and a message, storing nothing', async () => {
    const before = await clonedCount();
    const upload = (file: Blob, name = 'x.mp3') => test.client.voices.clone({ name: 'Bad', language: 'en', file: new File([file], name, { type: file.type }) });

    let error = await failure(upload(new Blob(['just some text, not audio'], { type: 'text/plain' }), 'notes.txt'));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/file: expected an MP3/);
    error = await failure(upload(new Blob(['{"not":"audio"}'], { type: 'audio/mpeg' })));
    expect(error.message).toMatch(/file: the file is not an MP3/);
    error = await failure(upload(new Blob([], { type: 'audio/mpeg' })));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('file');
    // An MPEG frame sync followed by garbage: sniffs as MP3, decodes to nothing.
    const garbage = new Uint8Array(4096).fill(0x55);
    garbage.set([0xff, 0xfb, 0x90, 0x00]);
    error = await failure(upload(new Blob([garbage], { type: 'audio/mpeg' })));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/^file: /);
    const large = new Uint8Array(5 * 1024 * 1024 + 1);
    large.set([0x49, 0x44, 0x33]);
    error = await failure(upload(new Blob([large], { type: 'audio/mpeg' })));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/largest accepted is 5242880 bytes/);
    // Silence: a valid MP3 without voiced speech.
    const { encodeMp3 } = await import('../../src/server/engines/speech/codecs/mp3.js');
    error = await failure(upload(new Blob([encodeMp3(new Int16Array(44_100), 44_100) as Uint8Array<ArrayBuffer>], { type: 'audio/mpeg' })));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/voiced speech/);

    error = await failure(test.client.voices.clone({ name: 'Bad', language: 'english!', file: new Blob([garbage], { type: 'audio/mpeg' }) }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('language');
    expect(await clonedCount()).toBe(before);
  });
});
