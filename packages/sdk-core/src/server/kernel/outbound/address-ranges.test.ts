import { describe, expect, it } from 'vitest';
import { addressKind, type AddressKind } from './address-ranges.js';
import { addressRefusal, targetRefusal, urlRefusal } from './outbound-policy.js';

describe('addressKind: the one table of non-public ranges', () => {
  it.each<[string, AddressKind]>([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['198.18.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unroutable'],
    ['0.1.2.3', 'unroutable'],
    ['192.0.2.10', 'unroutable'],
    ['224.0.0.1', 'unroutable'],
    ['239.255.255.250', 'unroutable'],
    ['240.0.0.1', 'unroutable'],
    ['255.255.255.255', 'unroutable'],
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['11.0.0.1', 'public'],
    // IPv6
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unroutable'],
    ['fd00::1', 'private'],
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'unroutable'],
    ['2001:db8::1', 'unroutable'],
    ['2606:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    // IPv6 carrying an IPv4 address to an IPv4 host: judged as that address
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:127.0.0.1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'unroutable'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', 'public'],
    // Deprecated IPv4-compatible addresses are not a way round the table either.
    ['::127.0.0.1', 'unroutable'],
    // Not an IP address at all.
    ['localhost', 'unroutable'],
    ['', 'unroutable'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

describe('addressRefusal: what the policy allows', () => {
  const strict = { allowLoopback: false, allowPrivateNetworks: false };
  const development = { allowLoopback: true, allowPrivateNetworks: false };
  const everything = { allowLoopback: true, allowPrivateNetworks: true };

  it('public addresses always pass; loopback and private ones as configured', () => {
    expect(addressRefusal('93.184.216.34', '93.184.216.34', strict)).toBeUndefined();
    expect(addressRefusal('127.0.0.1', '127.0.0.1', strict)?.message).toBe('resolves to a loopback address (127.0.0.1), which this server does not allow');
    expect(addressRefusal('127.0.0.1', '127.0.0.1', development)).toBeUndefined();
    expect(addressRefusal('db.internal', '10.0.0.5', development)?.message).toBe(
      'resolves to a private-network address (db.internal -> 10.0.0.5), which this server does not allow',
    );
    expect(addressRefusal('db.internal', '10.0.0.5', everything)).toBeUndefined();
  });

  it('link-local (cloud metadata) and unroutable addresses are never allowed', () => {
    for (const address of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254', '0.0.0.0', '::', '224.0.0.1']) {
      const refused = addressRefusal(address, address, everything);
      expect(refused?.reason, address).toBe('address');
      expect(refused?.message, address).toMatch(/which is never allowed$/);
    }
  });
});

describe('urlRefusal and targetRefusal: what a URL shows without resolving it', () => {
  const development = { allowLoopback: true, allowPrivateNetworks: false };
  const strict = { allowLoopback: false, allowPrivateNetworks: false };

  it('only absolute http(s) URLs without credentials', () => {
    expect(urlRefusal('not a url')?.reason).toBe('url');
    expect(urlRefusal('ftp://example.com/x')?.message).toBe('must be an http(s) URL, not ftp:');
    expect(urlRefusal('file:///etc/passwd')?.reason).toBe('url');
    expect(urlRefusal('https://user:pass@example.com/')?.reason).toBe('credentials');
    expect(urlRefusal('http://api.example.com@10.0.0.1/')?.reason).toBe('credentials');
    expect(urlRefusal('https://example.com/hook')).toBeUndefined();
  });

  it('literal hosts in every spelling, and localhost names, are judged; other names are left to the connection', () => {
    for (const url of [
      'http://169.254.169.254/latest',
      'http://2852039166/',
      'http://0xa9fea9fe/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fe80::1]/',
      'http://0.0.0.0:8080/',
      'http://10.0.0.5/',
    ]) {
      expect(targetRefusal(url, development)?.reason, url).toBe('address');
    }
    for (const url of ['http://127.0.0.1:8080/', 'http://[::1]/', 'http://localhost:11434/v1', 'http://api.localhost/', 'http://0177.0.0.1/']) {
      expect(targetRefusal(url, development), url).toBeUndefined();
      expect(targetRefusal(url, strict)?.kind, url).toBe('loopback');
    }
    expect(targetRefusal('https://llm.example.com/v1', strict)).toBeUndefined();
  });
});
