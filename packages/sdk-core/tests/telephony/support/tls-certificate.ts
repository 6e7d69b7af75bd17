import { opensslAvailable } from '../../../src/testing.js';
import { requireComponent } from '../../support/components.js';

export { selfSignedCertificate, type TestCertificate } from '../../../src/testing.js';

/** The `openssl` command is there to make a throwaway certificate, or the test is skipped (fails under CI). */
export function requireOpenssl(): boolean {
  return requireComponent('openssl', opensslAvailable(), 'apt-get install -y openssl');
}
