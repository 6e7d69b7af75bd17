import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/database.js';
import { UsageTokenService } from './usage-tokens.js';

const ISSUED_AT = Date.parse('2026-03-01T12:00:00.250Z');

describe('UsageTokenService on an injected clock', () => {
  let store: Store | undefined;
  afterEach(async () => store?.close());

  /** The service on its own SQLite database with one project, and the clock it reads. */
  async function service() {
    store = await openStore({ file: ':memory:' });
    await store.db
      .insertInto('projects')
      .values({ id: 'project_a', name: 'A', created_at: new Date(ISSUED_AT).toISOString(), disabled: 0 })
      .execute();
    const clock = { now: ISSUED_AT };
    return { tokens: new UsageTokenService(store, new Uint8Array(32).fill(7), () => clock.now), clock };
  }

  it("the JWT's exp is iat + the TTL it was minted with, and the token is refused from that second on", async () => {
    const { tokens, clock } = await service();
    const token = await tokens.create('project_a', 'ada', 60);
    const { iat, exp } = decodeJwt(token);
    expect(iat).toBe(Math.floor(ISSUED_AT / 1000));
    expect(exp! - iat!).toBe(60);
    expect(await tokens.remainingSeconds('project_a', 'ada')).toBe(60);

    clock.now = exp! * 1000 - 1;
    expect(await tokens.verify(token)).toMatchObject({ project: 'project_a', human: 'ada' });
    clock.now = exp! * 1000;
    expect(await tokens.verify(token)).toBeUndefined();
    expect(await tokens.remainingSeconds('project_a', 'ada')).toBeUndefined();
  });

  it('update_ttl extends a token past the exp it was minted with: the record decides, the claims are still checked', async () => {
    const { tokens, clock } = await service();
    const token = await tokens.create('project_a', 'ada', 60);
    expect(await tokens.updateTtl('project_a', 'ada', 7200)).toBe(true);
    expect(await tokens.remainingSeconds('project_a', 'ada')).toBe(7200);
    clock.now = decodeJwt(token).exp! * 1000 + 60_000;
    expect(await tokens.verify(token)).toMatchObject({ project: 'project_a', human: 'ada' });
    clock.now = ISSUED_AT + 7_200_000;
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it('an expired JWT with a bad signature or another audience is refused whatever its record says', async () => {
    const { tokens, clock } = await service();
    const token = await tokens.create('project_a', 'ada', 60);
    await tokens.updateTtl('project_a', 'ada', 7200);
    clock.now = decodeJwt(token).exp! * 1000 + 1;
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(forged)).toBeUndefined();
    const otherKey = new UsageTokenService(store!, new Uint8Array(32).fill(8), () => clock.now);
    expect(await otherKey.verify(token)).toBeUndefined();
  });

  it('update_ttl shortens a token', async () => {
    const { tokens, clock } = await service();
    const token = await tokens.create('project_a', 'ada', 60);

    clock.now += 5_000;
    await tokens.updateTtl('project_a', 'ada', 10);
    expect(await tokens.remainingSeconds('project_a', 'ada')).toBe(10);
    clock.now += 9_999;
    expect(await tokens.verify(token)).toBeDefined();
    clock.now += 1;
    expect(await tokens.verify(token)).toBeUndefined();
    // Nothing left to change once expired.
    expect(await tokens.updateTtl('project_a', 'ada', 600)).toBe(false);
  });
});
