import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageVersion } from './package-version.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** An installed package's layout: node_modules/@palaver/sdk-node/{package.json, dist/cli}, inside an app with its own package.json. */
function installedLayout(): string {
  const app = mkdtempSync(join(tmpdir(), 'palaver-version-'));
  folders.push(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'some-app', version: '9.9.9' }));
  const installed = join(app, 'node_modules/@palaver/sdk-node');
  mkdirSync(join(installed, 'dist/cli'), { recursive: true });
  writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: '@palaver/sdk-node', version: '1.2.3' }));
  return installed;
}

describe('packageVersion', () => {
  it("reads the package's own manifest from its build folders (dist/cli and dist), never the app's", () => {
    const installed = installedLayout();
    expect(packageVersion(join(installed, 'dist/cli'))).toBe('1.2.3');
    expect(packageVersion(join(installed, 'dist'))).toBe('1.2.3');
  });

  it('from the sources, the workspace package', () => {
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('says so when there is no such manifest above', () => {
    const folder = mkdtempSync(join(tmpdir(), 'palaver-version-none-'));
    folders.push(folder);
    expect(() => packageVersion(folder)).toThrow(/package\.json of @palaver\/sdk-node was not found/);
  });
});
