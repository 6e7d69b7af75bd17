import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import { HUMAN_DOCUMENT_QUOTA } from '../../src/server/store/document-store.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient, useHumanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';
import { seedDocuments } from './seed-documents.js';

describe.each(await storeKinds())('personas (%s)', (kind) => {
  const test = useTestServer(kind);
  const alice = useHumanClient(test, 'alice');
  const bob = useHumanClient(test, 'bob');

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
      const error = await failureOf(test.client.personas.create(body as never));
      expect(BadRequestError.isInstance(error), field).toBe(true);
      expect(error.message, field).toContain(field);
    }
  });

  it('updates only the given fields and validates a new voice', async () => {
    const persona = await test.client.personas.create({ name: 'Bea', description: 'Guide', voice: 'flite-rms' });
    const updated = await test.client.personas.update(persona.id, { voice: 'espeak-fr', description: 'Guide parisienne', gender: 'female' });
    expect(updated).toMatchObject({ id: persona.id, name: 'Bea', voice: 'espeak-fr', description: 'Guide parisienne', gender: 'female' });
    const error = await failureOf(test.client.personas.update(persona.id, { voice: 'voice_missing' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('voice');
    expect((await test.client.personas.retrieve(persona.id)).voice).toBe('espeak-fr');
    expect(NotFoundError.isInstance(await failureOf(test.client.personas.update('persona_missing', { name: 'x' })))).toBe(true);
  });

  it('deletes a persona; a second delete and a read answer 404', async () => {
    const persona = await test.client.personas.create({ name: 'Cy', description: 'Temp', voice: 'flite-kal16' });
    expect(await test.client.personas.delete(persona.id)).toEqual({ message: expect.stringContaining(persona.id) });
    expect(NotFoundError.isInstance(await failureOf(test.client.personas.retrieve(persona.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(test.client.personas.delete(persona.id)))).toBe(true);
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
    expect(
      all
        .filter((persona) => persona.human === 'pager')
        .map((persona) => persona.name)
        .sort(),
    ).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
    const error = await failureOf(asPager.personas.list({ page_size: 101 }));
    expect(error.message).toContain('page_size');
  });

  it("keeps humans apart: a human never sees or changes another human's persona", async () => {
    const own = await alice.personas.create({ name: 'Alice bot', description: 'x', voice: 'flite-slt' });
    expect(own.human).toBe('alice');
    for (const call of [() => bob.personas.retrieve(own.id), () => bob.personas.update(own.id, { name: 'stolen' }), () => bob.personas.delete(own.id)]) {
      expect(NotFoundError.isInstance(await failureOf(call()))).toBe(true);
    }
    expect((await bob.personas.list({ page_size: 100 })).values.map((persona) => persona.id)).not.toContain(own.id);
    expect((await alice.personas.list({ page_size: 100 })).values.map((persona) => persona.id)).toContain(own.id);
    expect((await alice.personas.update(own.id, { name: 'Alice bot 2' })).name).toBe('Alice bot 2');

    const shared = await test.client.personas.create({ name: 'House', description: 'x', voice: 'flite-slt' });
    expect((await bob.personas.retrieve(shared.id)).name).toBe('House');
    expect(PermissionDeniedError.isInstance(await failureOf(bob.personas.update(shared.id, { name: 'x' })))).toBe(true);
  });

  it('accepts only http(s) and data:image/* image URLs (400 naming image_url otherwise)', async () => {
    for (const image_url of [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'file:///etc/passwd',
    ]) {
      const error = await failureOf(test.client.personas.create({ name: 'x', description: 'y', voice: 'flite-slt', image_url }));
      expect(BadRequestError.isInstance(error), image_url).toBe(true);
      expect(error.message, image_url).toContain('image_url');
    }
    const persona = await test.client.personas.create({ name: 'Pic', description: 'y', voice: 'flite-slt', image_url: 'https://cdn.example.com/a.png' });
    expect(persona.image_url).toBe('https://cdn.example.com/a.png');
    const inline = 'data:image/png;base64,iVBORw0KGgo=';
    expect((await test.client.personas.update(persona.id, { image_url: inline })).image_url).toBe(inline);
    const error = await failureOf(test.client.personas.update(persona.id, { image_url: 'javascript:alert(1)' }));
    expect(error.message).toContain('image_url');
    expect((await test.client.personas.retrieve(persona.id)).image_url).toBe(inline);
  });

  it('keeps both fields when PUT {name} and PUT {description} race (20 pairs)', async () => {
    const personas = await Promise.all(
      Array.from({ length: 20 }, (_, index) => test.client.personas.create({ name: `n0-${index}`, description: 'd0', voice: 'flite-slt' })),
    );
    await Promise.all(
      personas.flatMap((persona) => [test.client.personas.update(persona.id, { name: 'n1' }), test.client.personas.update(persona.id, { description: 'd1' })]),
    );
    for (const persona of personas) expect(await test.client.personas.retrieve(persona.id)).toMatchObject({ name: 'n1', description: 'd1' });
  });

  it(`limits a usage token's human to ${HUMAN_DOCUMENT_QUOTA} personas (400 limit reached); API keys have no quota`, async () => {
    const human = 'quota-human';
    const owner = await humanClient(test, human);
    await seedDocuments(test.server.services.store, HUMAN_DOCUMENT_QUOTA - 1, (index) => ({
      kind: 'persona',
      id: `persona_quota_${index}`,
      project: test.server.project,
      human,
      name: 'seeded',
      data: JSON.stringify({ name: 'seeded', description: '', voice: 'flite-slt', image_url: null, gender: null, tags: [] }),
    }));
    const last = await owner.personas.create({ name: 'last', description: 'd', voice: 'flite-slt' });
    const refused = await failureOf(owner.personas.create({ name: 'one too many', description: 'd', voice: 'flite-slt' }));
    expect(BadRequestError.isInstance(refused)).toBe(true);
    expect((refused as BadRequestError).type).toBe('invalid_input');
    expect(refused.message).toContain('limit reached');
    // Other humans and the developer's own server (API key, even with x-human-id) are not affected.
    expect((await bob.personas.create({ name: 'b', description: 'd', voice: 'flite-slt' })).human).toBe('bob');
    const server = test.clientWith({ apiKey: test.server.apiKey, humanId: human });
    expect((await server.personas.create({ name: 'by key', description: 'd', voice: 'flite-slt' })).human).toBe(human);
    // Deleting makes room again.
    await owner.personas.delete(last.id);
    await owner.personas.delete((await server.personas.list({ page_size: 1 })).values[0]!.id);
    expect((await owner.personas.create({ name: 'again', description: 'd', voice: 'flite-slt' })).name).toBe('again');
  });

  it('rejects bad credentials with 401', async () => {
    const error = await failureOf(test.clientWith({ apiKey: 'pk_wrong_key_000000000000000000' }).personas.list());
    expect(AuthenticationError.isInstance(error)).toBe(true);
  });
});
