import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import type { CreateToolDefinitionRequest } from '../../src/index.js';
import { collectPages } from '../support/collect-pages.js';
import { storeKinds } from '../support/databases.js';
import { failureOf } from '../support/failure-of.js';
import { humanClient } from '../support/human-clients.js';
import { useTestServer } from '../support/suite-server.js';
import { startTestServer } from '../support/test-server.js';

const weather: CreateToolDefinitionRequest = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: [
    { name: 'city', description: 'City name', type: 'string', required: true },
    { name: 'unit', description: 'celsius or fahrenheit', type: 'string', required: false, default: 'celsius' },
  ],
  call_settings: { destination: { type: 'web_request', url: 'https://tools.example.com/weather' } },
};

describe.each(await storeKinds())('tool definitions (%s)', (kind) => {
  const test = useTestServer(kind);

  async function expectInvalid(body: unknown, field: string): Promise<void> {
    const error = await failureOf(test.client.tools.create(body as CreateToolDefinitionRequest));
    expect(BadRequestError.isInstance(error), JSON.stringify(body)).toBe(true);
    expect((error as BadRequestError).type).toBe('invalid_input');
    expect((error as BadRequestError).message).toContain(field);
  }

  it('creates, retrieves, replaces, lists and deletes a tool definition', async () => {
    const created = await test.client.tools.create(weather);
    expect(created).toMatchObject({ name: 'get_weather', description: weather.description, parameters: weather.parameters });
    expect(created.id).toMatch(/^tool_/);
    expect(created.call_settings).toEqual({ id: expect.any(String), destination: weather.call_settings.destination });
    expect(await test.client.tools.retrieve(created.id)).toEqual(created);

    const replaced = await test.client.tools.update(created.id, {
      name: 'get_forecast',
      description: 'Forecast',
      parameters: [{ name: 'days', description: 'How many days', type: 'number', required: true }],
      call_settings: { destination: { type: 'client_app' } },
    });
    expect(replaced).toEqual({
      id: created.id,
      name: 'get_forecast',
      description: 'Forecast',
      parameters: [{ name: 'days', description: 'How many days', type: 'number', required: true }],
      call_settings: { id: created.call_settings.id, destination: { type: 'client_app' } },
    });
    expect((await test.client.tools.list()).values.map((tool) => tool.id)).toContain(created.id);

    await expect(test.client.tools.delete(created.id)).resolves.toBeUndefined();
    expect(NotFoundError.isInstance(await failureOf(test.client.tools.retrieve(created.id)))).toBe(true);
  });

  it('answers 404 for unknown tools', async () => {
    for (const call of [
      () => test.client.tools.retrieve('tool_missing'),
      () => test.client.tools.update('tool_missing', weather),
      () => test.client.tools.delete('tool_missing'),
    ]) {
      expect(NotFoundError.isInstance(await failureOf(call()))).toBe(true);
    }
  });

  it('rejects invalid definitions with 400 invalid_input naming the field', async () => {
    await expectInvalid({ ...weather, name: 'bad name!' }, 'name');
    await expectInvalid({ ...weather, name: 'x'.repeat(65) }, 'name');
    await expectInvalid({ ...weather, parameters: [{ name: 'a', description: '', type: 'date', required: true }] }, 'parameters[0].type');
    await expectInvalid({ ...weather, parameters: [{ name: 'a', description: '', type: 'string' }] }, 'parameters[0].required');
    await expectInvalid(
      {
        ...weather,
        parameters: [
          { name: 'a', description: '', type: 'string', required: true },
          { name: 'a', description: '', type: 'number', required: false },
        ],
      },
      'parameters[1].name',
    );
    await expectInvalid({ ...weather, call_settings: { destination: { type: 'web_request', url: 'ftp://example.com/x' } } }, 'call_settings.destination.url');
    await expectInvalid({ ...weather, call_settings: { destination: { type: 'web_request' } } }, 'call_settings.destination.url');
    await expectInvalid({ ...weather, call_settings: { destination: { type: 'carrier_pigeon' } } }, 'call_settings.destination');
    await expectInvalid({ name: 'x', description: 'y', parameters: [] }, 'call_settings');
    const created = await test.client.tools.create(weather);
    const error = await failureOf(test.client.tools.update(created.id, { ...weather, name: 'bad name!' }));
    expect((error as BadRequestError).message).toContain('name');
    expect((await test.client.tools.retrieve(created.id)).name).toBe('get_weather');
  });

  it('refuses web_request URLs at private, link-local or (when configured) loopback addresses', async () => {
    const to = (url: string): CreateToolDefinitionRequest => ({ ...weather, call_settings: { destination: { type: 'web_request', url } } });
    const field = 'call_settings.destination.url';
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://2852039166/',
      'http://10.0.0.5/hook',
      'http://192.168.1.1/',
      'http://[fd00::1]/',
    ]) {
      await expectInvalid(to(url), field);
    }
    // Loopback is allowed by default (development), like the LLM gateway's `llm.allowLoopback`.
    expect((await test.client.tools.create(to('http://127.0.0.1:8080/hook'))).call_settings.destination).toEqual({
      type: 'web_request',
      url: 'http://127.0.0.1:8080/hook',
    });
    const created = await test.client.tools.create(to('http://localhost:8080/hook'));
    const refused = await failureOf(test.client.tools.update(created.id, to('http://169.254.169.254/')));
    expect((refused as BadRequestError).message).toContain(field);
    expect((await test.client.tools.retrieve(created.id)).call_settings.destination).toEqual({ type: 'web_request', url: 'http://localhost:8080/hook' });

    const strict = await startTestServer(kind, { config: { llm: { allowLoopback: false, allowPrivateNetworks: true } } });
    try {
      for (const url of ['http://127.0.0.1/', 'http://localhost/', 'http://api.localhost/', 'http://[::1]/', 'http://169.254.169.254/']) {
        const error = await failureOf(strict.client.tools.create(to(url)));
        expect(BadRequestError.isInstance(error), url).toBe(true);
        expect((error as BadRequestError).message, url).toContain(field);
      }
      // Private networks allowed by configuration; metadata addresses never.
      expect((await strict.client.tools.create(to('http://10.0.0.5/hook'))).name).toBe('get_weather');
    } finally {
      await strict.close();
    }
  });

  it('is API-key only: 403 for usage tokens on every route, 401 without credentials', async () => {
    const created = await test.client.tools.create(weather);
    const asTina = await humanClient(test, 'tina');
    for (const call of [
      () => asTina.tools.create(weather),
      () => asTina.tools.retrieve(created.id),
      () => asTina.tools.update(created.id, weather),
      () => asTina.tools.delete(created.id),
      () => asTina.tools.list(),
    ]) {
      const error = await failureOf(call());
      expect(PermissionDeniedError.isInstance(error)).toBe(true);
      expect((error as PermissionDeniedError).status).toBe(403);
    }
    const anonymous = test.clientWith({});
    expect(AuthenticationError.isInstance(await failureOf(anonymous.tools.list()))).toBe(true);
    expect(AuthenticationError.isInstance(await failureOf(anonymous.tools.create(weather)))).toBe(true);
    expect(await test.client.tools.retrieve(created.id)).toMatchObject({ id: created.id });
  });

  it('scopes tools created with x-human-id to that human', async () => {
    const asAnna = test.clientWith({ apiKey: test.server.apiKey, humanId: 'anna' });
    const asBen = test.clientWith({ apiKey: test.server.apiKey, humanId: 'ben' });
    const annas = await asAnna.tools.create({ ...weather, name: 'annas_tool' });

    expect(NotFoundError.isInstance(await failureOf(asBen.tools.retrieve(annas.id)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(asBen.tools.update(annas.id, weather)))).toBe(true);
    expect(NotFoundError.isInstance(await failureOf(asBen.tools.delete(annas.id)))).toBe(true);
    expect((await asBen.tools.list().all()).map((tool) => tool.id)).not.toContain(annas.id);
    expect((await asAnna.tools.list().all()).map((tool) => tool.id)).toContain(annas.id);
    expect(await test.client.tools.retrieve(annas.id)).toMatchObject({ name: 'annas_tool' });

    const shared = await test.client.tools.create({ ...weather, name: 'shared_tool' });
    expect(await asBen.tools.retrieve(shared.id)).toMatchObject({ name: 'shared_tool' });
    expect(PermissionDeniedError.isInstance(await failureOf(asBen.tools.update(shared.id, weather)))).toBe(true);
    expect(PermissionDeniedError.isInstance(await failureOf(asBen.tools.delete(shared.id)))).toBe(true);
    await expect(asAnna.tools.delete(annas.id)).resolves.toBeUndefined();
  });

  it('pages through 25 tools with page_size without duplicates or gaps', async () => {
    const pager = test.clientWith({ apiKey: test.server.apiKey, humanId: 'pager' });
    const created = new Set<string>();
    for (let index = 0; index < 25; index += 1) created.add((await pager.tools.create({ ...weather, name: `tool_${index}` })).id);
    await collectPages((query) => test.client.tools.list(query), { pageSize: 8, expectedIds: created });
    const mine = await pager.tools.list({ page_size: 100 });
    expect(mine.values.filter((tool) => created.has(tool.id))).toHaveLength(25);
  });
});
