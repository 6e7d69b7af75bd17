// @vitest-environment happy-dom
import { render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from '@palaver/sdk-core/testing';
import { PalaverProvider, usePalaverClient } from './index.js';

function VoiceCount() {
  const client = usePalaverClient();
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    void client.voices.list().then((page) => setCount(page.total_count));
  }, [client]);
  return <p>{count === null ? 'loading' : `${count} voices`}</p>;
}

describe('PalaverProvider', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await createTestPlatform();
  });
  afterAll(async () => platform.close());

  it('gives hooks the client, which talks to the real platform', async () => {
    const { token } = await platform.client.usage.createToken({ human: 'react-user' });
    render(
      <PalaverProvider client={platform.clientWith({ usageToken: token })}>
        <VoiceCount />
      </PalaverProvider>,
    );
    await waitFor(() => expect(screen.getByText(/\d+ voices/)).toBeTruthy());
    expect(Number(/(\d+) voices/.exec(screen.getByText(/voices/).textContent ?? '')?.[1])).toBeGreaterThan(0);
  });

  it('throws a clear error outside a provider', () => {
    const original = console.error;
    console.error = () => {};
    try {
      expect(() => render(<VoiceCount />)).toThrow(/PalaverProvider/);
    } finally {
      console.error = original;
    }
  });
});
