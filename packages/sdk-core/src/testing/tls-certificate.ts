import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether the `openssl` command is there to make a throwaway certificate. */
export function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface TestCertificate {
  cert: Buffer;
  key: Buffer;
  certFile: string;
  keyFile: string;
  /** Certificate and key in one file (baresip's `sip_certificate`). */
  pemFile: string;
}

/** A self-signed P-256 certificate for 127.0.0.1 (an IP SAN), valid for a day, made at runtime with `openssl`. */
export function selfSignedCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'sip-tls-'));
  const [certFile, keyFile, pemFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem'), join(dir, 'both.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(certFile);
  const key = readFileSync(keyFile);
  writeFileSync(pemFile, Buffer.concat([cert, key]));
  return { cert, key, certFile, keyFile, pemFile };
}
