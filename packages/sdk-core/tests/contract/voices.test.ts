import { beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import type { Principal } from '../../src/server/kernel/principal.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';

const FLITE = ['flite-awb', 'flite-kal', 'flite-kal16', 'flite-rms', 'flite-slt'];
const ESPEAK_LANGUAGES = ['en-gb', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ru', 'hi', 'cmn', 'ja', 'ar', 'tr', 'sv'];

describe.each(await storeKinds())('voices (%s)', (kind) => {
  const test = useTestServer(kind);
  const alice = useHumanClient(test, 'alice');
  const bob = useHumanClient(test, 'bob');
  let projectWide: Principal;

  beforeAll(() => {
    projectWide = { project: test.server.project, kind: 'key', human: null, credentialId: 'test' };
  });

  it('serves the built-in catalog: five Flite voices and fifteen eSpeak-NG languages', async () => {
    const voices = await test.client.voices.list({ page_size: 100 });
    const ids = voices.values.map((voice) => voice.id);
    expect(ids).toEqual(expect.arrayContaining([...FLITE, ...ESPEAK_LANGUAGES.map((language) => `espeak-${language}`)]));
    expect(voices.total_count).toBe(20);
    const slt = await test.client.voices.retrieve('flite-slt');
    expect(slt).toMatchObject({
      id: 'flite-slt',
      language: 'en',
      service: 'flite',
      voice: 'slt',
      project: null,
      pricing: { currency: 'USD', product_name: 'palaver-embedded-tts' },
    });
    expect(slt.pricing.price_per_second).toMatch(/^\d+\.\d+$/);
    expect(slt.tags).toEqual(
      expect.arrayContaining([
        { name: 'gender:female', human_name: 'Female' },
        { name: 'engine:flite', human_name: 'Flite' },
      ]),
    );
    expect((await test.client.voices.retrieve('flite-awb')).tags).toContainEqual({ name: 'accent:scottish', human_name: 'Scottish' });
    expect(await test.client.voices.retrieve('espeak-de')).toMatchObject({ service: 'espeak-ng', language: 'de', voice: 'de' });
    expect(await alice.voices.retrieve('espeak-cmn')).toMatchObject({ language: 'cmn' });
  });

  it('filters by tags with AND semantics, in repeated and comma-separated form', async () => {
    const flite = await test.client.voices.list({ tags: ['engine:flite'] });
    expect(flite.values.map((voice) => voice.id).sort()).toEqual(FLITE);
    const female = await test.client.voices.list({ tags: ['engine:flite', 'gender:female'] });
    expect(female.values.map((voice) => voice.id)).toEqual(['flite-slt']);
    const raw = await test.server.fetch(
      new Request('http://palaver.test/v1/voice/list?tags=engine:flite,accent:scottish', { headers: { 'x-api-key': test.server.apiKey } }),
    );
    expect(((await raw.json()) as { values: Array<{ id: string }> }).values.map((voice) => voice.id)).toEqual(['flite-awb']);
    expect((await test.client.voices.list({ tags: ['engine:flite', 'engine:espeak-ng'] })).values).toEqual([]);
    const error = await failureOf(test.client.voices.list({ tags: ['Not A Tag'] }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('tags');
  });

  it('pages through the catalog', async () => {
    const first = await test.client.voices.list({ page_size: 7 });
    expect(first.values).toHaveLength(7);
    expect(first.next_page).toEqual(expect.any(String));
    const all = await test.client.voices.list({ page_size: 7 }).all();
    expect(all).toHaveLength(first.total_count);
    expect(new Set(all.map((voice) => voice.id)).size).toBe(all.length);
  });

  it('keeps built-in voices read-only (403) and answers 404 for unknown voices', async () => {
    expect(PermissionDeniedError.isInstance(await failureOf(test.client.voices.update('flite-slt', { name: 'Mine', language: 'en' })))).toBe(true);
    expect(PermissionDeniedError.isInstance(await failureOf(test.client.voices.delete('espeak-de')))).toBe(true);
    expect((await test.client.voices.retrieve('flite-slt')).name).not.toBe('Mine');
    for (const call of [
      () => test.client.voices.retrieve('voice_missing'),
      () => test.client.voices.update('voice_missing', { name: 'x', language: 'en' }),
      () => test.client.voices.delete('voice_missing'),
    ]) {
      expect(NotFoundError.isInstance(await failureOf(call()))).toBe(true);
    }
  });

  it('updates and deletes a project voice, validating the request', async () => {
    const created = await test.server.services.voices.createProjectVoice(projectWide, {
      name: 'Narrator',
      language: 'en',
      service: 'espeak-ng',
      voice: 'en-us',
      embeddings: [105, 5.8],
      tags: ['cloned'],
    });
    expect(created).toMatchObject({ project: test.server.project, human: null, tags: [{ name: 'cloned', human_name: 'Cloned' }] });
    const updated = await test.client.voices.update(created.id, { name: 'Narrator 2', language: 'en-us', tags: ['mood:calm-warm', 'gender:female'] });
    expect(updated).toMatchObject({
      id: created.id,
      name: 'Narrator 2',
      language: 'en-us',
      embeddings: [105, 5.8],
      tags: [
        { name: 'mood:calm-warm', human_name: 'Calm warm' },
        { name: 'gender:female', human_name: 'Female' },
      ],
    });
    expect((await test.client.voices.list({ tags: ['mood:calm-warm'] })).values.map((voice) => voice.id)).toEqual([created.id]);
    expect((await test.client.voices.list({ tags: ['cloned'] })).values).toEqual([]);

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ language: 'en' }, 'name'],
      [{ name: 'x', language: 'english please' }, 'language'],
      [{ name: 'x', language: 'en', tags: ['has space'] }, 'tags'],
    ];
    for (const [body, field] of cases) {
      const error = await failureOf(test.client.voices.update(created.id, body as never));
      expect(BadRequestError.isInstance(error), field).toBe(true);
      expect(error.message, field).toContain(field);
    }

    expect(await test.client.voices.delete(created.id)).toEqual({ message: expect.stringContaining(created.id) });
    expect(NotFoundError.isInstance(await failureOf(test.client.voices.retrieve(created.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(test.client.voices.delete(created.id)))).toBe(true);
  });

  it('keeps the tags of a PUT with tags when a PUT without tags races it (20 pairs)', async () => {
    const voices = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        test.server.services.voices.createProjectVoice(projectWide, { name: `v0-${index}`, language: 'en', service: 'espeak-ng', voice: 'en-us' }),
      ),
    );
    // Half the pairs start the tag-less PUT first, half second, so either interleaving is exercised.
    await Promise.all(
      voices.flatMap((voice, index) => {
        const pair = [
          () => test.client.voices.update(voice.id, { name: 'renamed', language: 'en' }),
          () => test.client.voices.update(voice.id, { name: 'renamed', language: 'en', tags: ['mood:calm'] }),
        ];
        return (index % 2 === 0 ? pair : pair.reverse()).map((call) => call());
      }),
    );
    for (const voice of voices) {
      expect(
        (await test.client.voices.retrieve(voice.id)).tags.map((tag) => tag.name),
        voice.id,
      ).toEqual(['mood:calm']);
    }
  });

  it("keeps humans apart: a human never sees or changes another human's voice, nor a shared one", async () => {
    const own = await test.server.services.voices.createProjectVoice(
      { ...projectWide, human: 'alice' },
      { name: 'Alice clone', language: 'en', tags: ['cloned'] },
    );
    expect(own.human).toBe('alice');
    expect((await alice.voices.retrieve(own.id)).name).toBe('Alice clone');
    for (const call of [
      () => bob.voices.retrieve(own.id),
      () => bob.voices.update(own.id, { name: 'stolen', language: 'en' }),
      () => bob.voices.delete(own.id),
    ]) {
      expect(NotFoundError.isInstance(await failureOf(call()))).toBe(true);
    }
    expect((await bob.voices.list({ tags: ['cloned'] })).values).toEqual([]);
    expect((await alice.voices.list({ tags: ['cloned'] })).values.map((voice) => voice.id)).toEqual([own.id]);
    expect((await alice.voices.update(own.id, { name: 'Alice v2', language: 'en' })).name).toBe('Alice v2');

    const shared = await test.server.services.voices.createProjectVoice(projectWide, { name: 'House voice', language: 'en' });
    expect((await bob.voices.retrieve(shared.id)).name).toBe('House voice');
    expect(PermissionDeniedError.isInstance(await failureOf(bob.voices.update(shared.id, { name: 'x', language: 'en' })))).toBe(true);
    expect(PermissionDeniedError.isInstance(await failureOf(bob.voices.delete(shared.id)))).toBe(true);
  });

  it('validates generate and clone input (the behaviour is tested in tests/speech/)', async () => {
    let error = await failureOf(test.client.voices.generate({ text: '' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('text');

    const recording = new File([new Uint8Array([0xff, 0xfb, 0x90, 0x00])], 'me.mp3', { type: 'audio/mpeg' });
    error = await failureOf(test.client.voices.clone({ name: 'Me', language: 'en', file: recording }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('file');
    const form = new FormData();
    form.append('name', 'Me');
    form.append('language', 'en');
    const response = await test.server.fetch(
      new Request('http://palaver.test/v1/voice/clone', { method: 'POST', body: form, headers: { 'x-api-key': test.server.apiKey } }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('file');
  });

  it('rejects bad credentials with 401', async () => {
    const error = await failureOf(test.clientWith({ apiKey: 'pk_wrong_key_000000000000000000' }).voices.list());
    expect(AuthenticationError.isInstance(error)).toBe(true);
  });
});
