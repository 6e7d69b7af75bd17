import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, PermissionDeniedError, ProjectDisabledError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { useTestServer } from '../support/suite-server.js';

describe.each(await storeKinds())('authentication (%s)', (kind) => {
  const test = useTestServer(kind);

  it('refuses a usage token whose x-human-id names another human', async () => {
    const { token } = await test.client.usage.createToken({ human: 'hana' });
    const error = await test
      .clientWith({ usageToken: token, humanId: 'ivan' })
      .personas.list()
      .catch((caught: unknown) => caught);
    expect(PermissionDeniedError.isInstance(error)).toBe(true);
    await expect(test.clientWith({ usageToken: token, humanId: 'hana' }).personas.list()).resolves.toHaveProperty('values');
  });

  it('rejects an over-long x-human-id with a 400 naming the header', async () => {
    const error = await test
      .clientWith({ apiKey: test.server.apiKey, humanId: 'h'.repeat(300) })
      .personas.list()
      .catch((caught: unknown) => caught);
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect((error as BadRequestError).message).toContain('x-human-id');
  });

  it('answers 401 for a malformed Authorization header', async () => {
    const response = await test.server.fetch(new Request('http://palaver.test/v1/persona/list', { headers: { authorization: 'Basic abc' } }));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: 'unauthorized' });
  });

  it('a revoked API key is refused on the next request', async () => {
    const { id, key } = await test.server.services.apiKeys.create(test.server.project, 'temporary');
    const client = test.clientWith({ apiKey: key });
    await client.personas.list();
    await test.server.services.apiKeys.revoke(id);
    await expect(client.personas.list()).rejects.toSatisfy((error: unknown) => AuthenticationError.isInstance(error));
  });

  it('a disabled project answers 400 project_disabled for keys and tokens', async () => {
    const project = await test.server.services.projects.create('to be disabled');
    const { key } = await test.server.services.apiKeys.create(project, 'k');
    const client = test.clientWith({ apiKey: key });
    const { token } = await client.usage.createToken({ human: 'zed' });
    await test.server.services.projects.setDisabled(project, true);
    for (const caller of [client, test.clientWith({ usageToken: token })]) {
      const error = await caller.personas.list().catch((caught: unknown) => caught);
      expect(ProjectDisabledError.isInstance(error)).toBe(true);
      expect((error as ProjectDisabledError).type).toBe('project_disabled');
    }
  });

  it("keeps projects apart: a key of another project sees none of this project's objects", async () => {
    const project = await test.server.services.projects.create('other');
    const { key } = await test.server.services.apiKeys.create(project, 'k');
    const { token } = await test.client.usage.createToken({ human: 'shared-name' });
    expect(token).toBeTruthy();
    const other = test.clientWith({ apiKey: key });
    const error = await other.usage.checkToken({ human: 'shared-name' }).catch((caught: unknown) => caught);
    expect((error as { status?: number }).status).toBe(404);
  });
});
