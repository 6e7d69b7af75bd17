import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../errors/api-error.js';
import { addressClass, assertUpstreamAllowed, assertUpstreamTarget, checkedLookup } from './upstream-address.js';

describe('addressClass', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['fd00::1', 'private'],
    ['fe80::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(addressClass(address)).toBe(expected);
  });
});

describe('assertUpstreamAllowed', () => {
  const strict = { allowLoopback: false, allowPrivateNetworks: false };
  const resolveTo = (...addresses: string[]) => (async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))) as never;

  it('refuses loopback and private destinations, naming model and the setting', async () => {
    for (const url of ['http://127.0.0.1:8080/v1/chat/completions', 'http://[::1]/v1', 'http://169.254.169.254/latest']) {
      const error = await assertUpstreamAllowed(new URL(url), strict).catch((caught: unknown) => caught);
      expect(BadRequestError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/^model: .*PALAVER_LLM_ALLOW_/);
    }
  });

  it('refuses a name when any of its addresses is private (a host cannot hide behind one public address)', async () => {
    await expect(assertUpstreamAllowed(new URL('https://llm.example.com/v1'), strict, resolveTo('93.184.216.34', '10.0.0.5'))).rejects.toThrow(/private/);
    await expect(assertUpstreamAllowed(new URL('https://llm.example.com/v1'), strict, resolveTo('93.184.216.34'))).resolves.toBeUndefined();
  });

  it('allows what the policy allows', async () => {
    await expect(assertUpstreamAllowed(new URL('http://127.0.0.1/v1'), { allowLoopback: true, allowPrivateNetworks: false })).resolves.toBeUndefined();
    await expect(assertUpstreamAllowed(new URL('http://10.0.0.1/v1'), { allowLoopback: false, allowPrivateNetworks: true })).resolves.toBeUndefined();
  });
});

describe('checkedLookup (the address a connection resolves is the one judged)', () => {
  const lookupOf = (policy: { allowLoopback: boolean; allowPrivateNetworks: boolean }, all: boolean) =>
    new Promise<{ error: Error | null; result: unknown }>((resolve) =>
      checkedLookup(policy)('localhost', { all }, (error, address) => resolve({ error, result: address })),
    );

  it('refuses a name resolving to loopback under a strict policy, with the platform refusal', async () => {
    const { error } = await lookupOf({ allowLoopback: false, allowPrivateNetworks: false }, true);
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error!.message).toMatch(/loopback address.*PALAVER_LLM_ALLOW_LOOPBACK/);
  });

  it('answers in the shape asked for (one address, or all) when allowed', async () => {
    const permissive = { allowLoopback: true, allowPrivateNetworks: false };
    const all = await lookupOf(permissive, true);
    expect(all.error).toBeNull();
    expect((all.result as Array<{ address: string }>).every((entry) => addressClass(entry.address) === 'loopback')).toBe(true);
    const one = await lookupOf(permissive, false);
    expect(addressClass(one.result as string)).toBe('loopback');
  });

  it('a name that does not resolve is refused as such', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      checkedLookup({ allowLoopback: true, allowPrivateNetworks: true })('no-such-host.invalid', {}, (caught) => resolve(caught)),
    );
    expect(error!.message).toMatch(/does not resolve/);
  });

  it('assertUpstreamTarget judges IP literals, schemes and credentials without resolving', () => {
    const strict = { allowLoopback: false, allowPrivateNetworks: false };
    expect(() => assertUpstreamTarget(new URL('http://127.0.0.1:8080/v1'), strict)).toThrow(/loopback/);
    expect(() => assertUpstreamTarget(new URL('ftp://example.com/v1'), strict)).toThrow(/http\(s\)/);
    expect(() => assertUpstreamTarget(new URL('https://user:pass@example.com/v1'), strict)).toThrow(/credentials/);
    expect(() => assertUpstreamTarget(new URL('https://llm.example.com/v1'), strict)).not.toThrow();
  });
});
