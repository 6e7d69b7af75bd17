import { describe, expect, it } from 'vitest';
import { PalaverError } from './palaver-error.js';
import { ConnectionError } from './transport-errors.js';

describe('PalaverError names', () => {
  it('come from the marker, so a bundler renaming a class (livekit-client has a ConnectionError too) changes nothing', () => {
    // What esbuild emits when two bundled classes share a name.
    const ConnectionError2 = class ConnectionError2 extends PalaverError {
      static override readonly marker: symbol = Symbol.for('palaver.error.ConnectionError');
    };
    const renamed = new ConnectionError2('no way in');
    expect(renamed.name).toBe('ConnectionError');
    expect(ConnectionError.isInstance(renamed)).toBe(true);
    expect(new ConnectionError('closed', 'gone').name).toBe('ConnectionError');
  });

  it('fall back to the class name for a subclass without its own marker', () => {
    class Unmarked extends PalaverError {}
    expect(new Unmarked('x').name).toBe('Unmarked');
  });
});
