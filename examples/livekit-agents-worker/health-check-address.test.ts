import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_CHECK_PORT, healthCheckAddress } from './health-check-address.js';

describe("the worker's health-check address", () => {
  it('is PALAVER_WORKER_PORT at PALAVER_WORKER_HOST; 0 becomes a free port', async () => {
    const free = await healthCheckAddress({ PALAVER_WORKER_PORT: '0' });
    expect(free.host).toBe('127.0.0.1');
    expect(free.port).toBeGreaterThan(0);
    expect(await healthCheckAddress({ PALAVER_WORKER_PORT: String(free.port), PALAVER_WORKER_HOST: '127.0.0.1' })).toEqual(free);
    expect(DEFAULT_HEALTH_CHECK_PORT).toBe(8081);
  });

  it('names the variable when the value is not a port or the port is taken', async () => {
    await expect(healthCheckAddress({ PALAVER_WORKER_PORT: 'eighty' })).rejects.toThrow(
      'PALAVER_WORKER_PORT=eighty is not a port: use a whole number from 0 to 65535 (0 picks a free one)',
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as { port: number };
      await expect(healthCheckAddress({ PALAVER_WORKER_PORT: String(port) })).rejects.toThrow(
        `port ${port} on 127.0.0.1 (the worker's health check) is already in use: set PALAVER_WORKER_PORT to another port (0 picks a free one)`,
      );
    } finally {
      taken.close();
    }
  });
});
