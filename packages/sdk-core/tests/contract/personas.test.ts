import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError, type PalaverClient } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

async function failure(promise: PromiseLike<unknown>): Promise<Error & { message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe.each(await storeKinds())('personas (%s)', (kind) => {
  let test: TestServer;
  let alice: PalaverClient;
  let bob: PalaverClient;

  beforeAll(async () => {
    test = await startTestServer(kind);
    alice = test.clientWith({ usageToken: (await test.client.usage.createToken({ human: 'alice' })).token });
    bob = test.clientWith({ usageToken: (await test.client.usage.createToken({ human: 'bob' })).token });
  });
  afterAll(async () => test.close());

  it('creates a persona with a built-in voice and reads it back', async () => {
    const persona = await test.client.personas.create({ name: 'Ada', description: 'A patient tutor', voice: 'flite-slt', gender: 'female' });
    expect(persona).toMatchObject({ name: 'Ada', description: 'A patient tutor', voice: 'flite-slt', gender: 'female', project: test.server.project });
    expect(persona.id).toMatch(/^persona_/);
    expect(await test.client.personas.retrieve(persona.id)).toEqual(persona);
  });

  it('rejects an unknown voice and invalid fields with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', description: 'y', voice: 'voice_missing' }, 'voice'],
      [{ description: 'y', voice: 'flite-slt' }, 'name'],
      [{ name: 'x', description: 'y', voice: 'flite-slt', gender: 'other' }, 'gender'],
      [{ name: 'x', description: 'y', voice: 'flite-slt', image_url: 'not a url' }, 'image_url'],
    ];
    for (const [body, field] of cases) {
      const error = await failure(test.client.personas.create(body as never));
      expect(BadRequestError.isInstance(error), field).toBe(true);
      expect(error.message, field).toContain(field);
    }
  });

  it('updates only the given fields and validates a new voice', async () => {
    const persona = await test.client.personas.create({ name: 'Bea', description: 'Guide', voice: 'flite-rms' });
    const updated = await test.client.personas.update(persona.id, { voice: 'espeak-fr', description: 'Guide parisienne', gender: 'female' });
    expect(updated).toMatchObject({ id: persona.id, name: 'Bea', voice: 'espeak-fr', description: 'Guide parisienne', gender: 'female' });
    const error = await failure(test.client.personas.update(persona.id, { voice: 'voice_missing' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('voice');
    expect((await test.client.personas.retrieve(persona.id)).voice).toBe('espeak-fr');
    expect(NotFoundError.isInstance(await failure(test.client.personas.update('persona_missing', { name: 'x' })))).toBe(true);
  });

  it('deletes a persona; a second delete and a read answer 404', async () => {
    const persona = await test.client.personas.create({ name: 'Cy', description: 'Temp', voice: 'flite-kal16' });
    expect(await test.client.personas.delete(persona.id)).toEqual({ message: expect.stringContaining(persona.id) });
    expect(NotFoundError.isInstance(await failure(test.client.personas.retrieve(persona.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failure(test.client.personas.delete(persona.id)))).toBe(true);
  });

  it('pages through every persona without repeats', async () => {
    const asPager = test.clientWith({ apiKey: test.server.apiKey, humanId: 'pager' });
    for (let index = 0; index < 7; index += 1) await asPager.personas.create({ name: `P${index}`, description: 'x', voice: 'flite-slt' });
    const first = await asPager.personas.list({ page_size: 3 });
    expect(first.values).toHaveLength(3);
    expect(first.next_page).toEqual(expect.any(String));
    const all = await asPager.personas.list({ page_size: 3 }).all();
    expect(all).toHaveLength(first.total_count);
    expect(new Set(all.map((persona) => persona.id)).size).toBe(all.length);
    expect(all.filter((persona) => persona.human === 'pager').map((persona) => persona.name).sort()).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
    const error = await failure(asPager.personas.list({ page_size: 101 }));
    expect(error.message).toContain('page_size');
  });

  it("keeps humans apart: a human never sees or changes another human's persona", async () => {
    const own = await alice.personas.create({ name: 'Alice bot', description: 'x', voice: 'flite-slt' });
    expect(own.human).toBe('alice');
    for (const call of [
      () => bob.personas.retrieve(own.id),
      () => bob.personas.update(own.id, { name: 'stolen' }),
      () => bob.personas.delete(own.id),
    ]) {
      expect(NotFoundError.isInstance(await failure(call()))).toBe(true);
    }
    expect((await bob.personas.list({ page_size: 100 })).values.map((persona) => persona.id)).not.toContain(own.id);
    expect((await alice.personas.list({ page_size: 100 })).values.map((persona) => persona.id)).toContain(own.id);
    expect((await alice.personas.update(own.id, { name: 'Alice bot 2' })).name).toBe('Alice bot 2');

    const shared = await test.client.personas.create({ name: 'House', description: 'x', voice: 'flite-slt' });
    expect((await bob.personas.retrieve(shared.id)).name).toBe('House');
    expect(PermissionDeniedError.isInstance(await failure(bob.personas.update(shared.id, { name: 'x' })))).toBe(true);
  });

  it('rejects bad credentials with 401', async () => {
    const error = await failure(test.clientWith({ apiKey: 'pk_wrong_key_000000000000000000' }).personas.list());
    expect(AuthenticationError.isInstance(error)).toBe(true);
  });
});
