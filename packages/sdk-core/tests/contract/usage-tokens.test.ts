import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from '../../src/index.js';
import { storeKinds } from '../support/databases.js';
import { useTestServer } from '../support/suite-server.js';

/** Seconds from the JWT's `iat` to its `exp`. */
function lifetimeOf(token: string): number {
  const { iat, exp } = decodeJwt(token);
  return exp! - iat!;
}

describe.each(await storeKinds())('usage tokens (%s)', (kind) => {
  const test = useTestServer(kind);

  it('mints a token that authenticates as its human, with the default ttl of 3600 s', async () => {
    const { token } = await test.client.usage.createToken({ human: 'alice' });
    expect(token.split('.')).toHaveLength(3);
    // The JWT says how long it is valid: exp is iat + the TTL.
    expect(lifetimeOf(token)).toBe(3600);
    expect(lifetimeOf((await test.client.usage.createToken({ human: 'alice', ttl_seconds: 60 })).token)).toBe(60);
    const { ttl_seconds } = await test.client.usage.checkToken({ human: 'alice' });
    expect(ttl_seconds).toBeGreaterThan(3590);
    expect(ttl_seconds).toBeLessThanOrEqual(3600);
    const asAlice = test.clientWith({ usageToken: token });
    await expect(asAlice.personas.list()).resolves.toMatchObject({ total_count: 0 });
  });

  it('accepts the deprecated human_id alias and rejects a request without a human', async () => {
    await expect(test.client.usage.createToken({ human_id: 'legacy' })).resolves.toHaveProperty('token');
    const error = await test.client.usage.createToken({ ttl_seconds: 10 }).catch((caught: unknown) => caught);
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect((error as BadRequestError).type).toBe('invalid_input');
    expect((error as BadRequestError).message).toContain('human');
  });

  it('revocation takes effect on the very next request', async () => {
    const { token } = await test.client.usage.createToken({ human: 'bob', ttl_seconds: 600 });
    const asBob = test.clientWith({ usageToken: token });
    await asBob.personas.list();
    await test.client.usage.revokeToken({ human: 'bob' });
    await expect(asBob.personas.list()).rejects.toSatisfy((error: unknown) => AuthenticationError.isInstance(error));
    await expect(test.client.usage.checkToken({ human: 'bob' })).rejects.toSatisfy((error: unknown) => NotFoundError.isInstance(error));
    // Revoking again succeeds (the spec answers 200 without a 404 case).
    await expect(test.client.usage.revokeToken({ human: 'bob' })).resolves.toBeUndefined();
  });

  it('update_ttl shortens and extends the remaining lifetime; expiry rejects the next request', async () => {
    const { token } = await test.client.usage.createToken({ human: 'carol', ttl_seconds: 60 });
    await test.client.usage.updateTtl({ human: 'carol', ttl_seconds: 7200 });
    expect((await test.client.usage.checkToken({ human: 'carol' })).ttl_seconds).toBeGreaterThan(7100);
    await test.client.usage.updateTtl({ human: 'carol', ttl_seconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const asCarol = test.clientWith({ usageToken: token });
    await expect(asCarol.personas.list()).rejects.toSatisfy((error: unknown) => AuthenticationError.isInstance(error));
    // Nothing to extend once expired: update_ttl does not resurrect the token.
    await test.client.usage.updateTtl({ human: 'carol', ttl_seconds: 600 });
    await expect(asCarol.personas.list()).rejects.toSatisfy((error: unknown) => AuthenticationError.isInstance(error));
    await expect(test.client.usage.checkToken({ human: 'carol' })).rejects.toSatisfy((error: unknown) => NotFoundError.isInstance(error));
  });

  it('usage tokens cannot call API-key-only operations', async () => {
    const { token } = await test.client.usage.createToken({ human: 'dave' });
    const asDave = test.clientWith({ usageToken: token });
    const error = await asDave.usage.createToken({ human: 'eve' }).catch((caught: unknown) => caught);
    expect(PermissionDeniedError.isInstance(error)).toBe(true);
    expect((error as PermissionDeniedError).status).toBe(403);
  });

  it('rejects tampered, foreign and malformed tokens and bad keys with 401', async () => {
    const { token } = await test.client.usage.createToken({ human: 'frank' });
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'mallory' })).toString('base64url');
    const noneAlgorithm = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    for (const credentials of [
      { usageToken: `${header}.${forged}.${signature}` },
      { usageToken: noneAlgorithm },
      { usageToken: 'not-a-jwt' },
      { apiKey: 'pk_wrong_key_000000000000000000' },
    ]) {
      const error = await test
        .clientWith(credentials)
        .personas.list()
        .catch((caught: unknown) => caught);
      expect(AuthenticationError.isInstance(error), JSON.stringify(credentials)).toBe(true);
    }
  });

  it('stores and returns deprecated per-human limits', async () => {
    await test.client.usage.updateLimits({ human: 'gina', limits: [{ type: 'token_cnt', value: 1000 }] });
    const asGina = test.clientWith({ apiKey: test.server.apiKey, humanId: 'gina' });
    expect(await asGina.usage.limits()).toEqual([{ type: 'token_cnt', value: 1000 }]);
    const { token } = await test.client.usage.createToken({ human: 'gina' });
    expect(await test.clientWith({ usageToken: token }).usage.limits()).toEqual([{ type: 'token_cnt', value: 1000 }]);
    await expect(test.client.usage.limits()).rejects.toSatisfy((error: unknown) => BadRequestError.isInstance(error));
  });
});
