import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from './commands.js';

export const PACKAGES = ['sdk-core', 'sdk-react', 'sdk-node'] as const;
export type PackageFolder = (typeof PACKAGES)[number];

export interface PackedPackages {
  directory: string;
  /** Absolute path of each package's tarball. */
  tarballs: Record<PackageFolder, string>;
}

/** Builds every package at the root (`pnpm build`) and packs each with `pnpm pack`, as a release would. */
export function packWorkspace(): PackedPackages {
  const build = spawnSync('pnpm', ['build'], { cwd: repositoryRoot, encoding: 'utf8', timeout: 300_000 });
  if (build.status !== 0) throw new Error(`pnpm build failed:\n${build.stdout}\n${build.stderr}`);
  const directory = mkdtempSync(join(tmpdir(), 'palaver-packs-'));
  const tarballs = {} as Record<PackageFolder, string>;
  for (const folder of PACKAGES) {
    const pack = spawnSync('pnpm', ['pack', '--pack-destination', directory], {
      cwd: join(repositoryRoot, 'packages', folder),
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (pack.status !== 0) throw new Error(`pnpm pack failed in ${folder}:\n${pack.stdout}\n${pack.stderr}`);
    const tarball = pack.stdout.trim().split('\n').at(-1)!.trim();
    tarballs[folder] = tarball;
  }
  return { directory, tarballs };
}

/** The files of a tarball and its package.json, read with `tar`. */
export function tarballContents(tarball: string): { files: string[]; manifest: Record<string, unknown> } {
  const list = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
  const files = list.stdout
    .trim()
    .split('\n')
    .map((file) => file.replace(/^package\//, ''));
  const manifest = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout) as Record<string, unknown>;
  return { files, manifest };
}

/** Every path a manifest points at (`main`, `module`, `types`, `bin`, every `exports` target). */
export function manifestTargets(manifest: Record<string, unknown>): string[] {
  const targets: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') for (const child of Object.values(value)) walk(child);
  };
  for (const field of ['main', 'module', 'types', 'bin', 'exports']) walk(manifest[field]);
  return targets;
}

/** The package.json of an installed package. */
export function installedManifest(project: string, name: string): Record<string, Record<string, string> | undefined> {
  return JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
}
