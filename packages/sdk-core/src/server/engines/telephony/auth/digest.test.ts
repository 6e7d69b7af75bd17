import { describe, expect, it } from 'vitest';
import { answerChallenge, DigestChallenger, NONCE_LIFETIME_MS } from './digest.js';

const credentials = { username: 'trunk', password: 'secret' };

describe('SIP digest authentication', () => {
  it('accepts the answer to its own challenge (qop=auth) and refuses a wrong password', () => {
    const digest = new DigestChallenger('palaver');
    const challenge = digest.challenge();
    expect(challenge).toMatch(/qop="auth"/);
    const right = answerChallenge(challenge, 'INVITE', 'sip:+1555@127.0.0.1', credentials);
    expect(digest.verify(right, 'INVITE', credentials)).toBe('ok');
    const wrong = answerChallenge(challenge, 'INVITE', 'sip:+1555@127.0.0.1', { ...credentials, password: 'nope' });
    expect(digest.verify(wrong, 'INVITE', credentials)).toBe('wrong');
    expect(digest.verify(right, 'BYE', credentials)).toBe('wrong');
    expect(digest.verify(undefined, 'INVITE', credentials)).toBe('missing');
  });

  it('refuses nonces it did not issue and calls old ones stale', () => {
    let now = 1_000_000;
    const digest = new DigestChallenger('palaver', () => now);
    const foreign = new DigestChallenger('palaver').challenge();
    expect(digest.verify(answerChallenge(foreign, 'INVITE', 'sip:x@y', credentials), 'INVITE', credentials)).toBe('missing');
    const answer = answerChallenge(digest.challenge(), 'INVITE', 'sip:x@y', credentials);
    now += NONCE_LIFETIME_MS + 1;
    expect(digest.verify(answer, 'INVITE', credentials)).toBe('stale');
    expect(digest.challenge(true)).toMatch(/stale=true/);
  });
});
