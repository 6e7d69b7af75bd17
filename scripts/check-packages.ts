// `pnpm check:packages`: builds and packs the three packages as a release does, then runs publint and Are the Types
// Wrong on the tarballs: every entry must resolve with its types under node16 (CommonJS and ESM) and bundler. The
// consumers test (tests/consumers/consumers.test.ts) runs the same checks on the tarballs it installs.
import { rmSync } from 'node:fs';
import { ALLOWED_PROBLEMS, packageFindings } from '../tests/consumers/support/package-checks.js';
import { packWorkspace } from '../tests/consumers/support/packed-packages.js';

const packed = packWorkspace();
try {
  const findings = await packageFindings(packed.tarballs);
  for (const finding of findings) console.log(`@palaver/${finding.folder} ${finding.tool}: ${finding.message}`);
  for (const allowed of ALLOWED_PROBLEMS)
    console.log(`allowed: @palaver/${allowed.folder} ${allowed.entrypoint} ${allowed.kind} (${allowed.resolution}): ${allowed.reason}`);
  console.log(findings.length === 0 ? 'publint and attw: no problems in the packed packages' : `publint and attw: ${findings.length} problem(s)`);
  process.exitCode = findings.length === 0 ? 0 : 1;
} finally {
  rmSync(packed.directory, { recursive: true, force: true });
}
