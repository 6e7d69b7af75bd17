import { readFileSync } from 'node:fs';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { problemAffectsEntrypointResolution, problemKindInfo } from '@arethetypeswrong/core/problems';
import type { Problem, ProblemKind, ResolutionKind } from '@arethetypeswrong/core/types';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import type { PackageFolder } from './packed-packages.js';

/**
 * What publint and Are the Types Wrong (attw) find in the packed packages: the tarballs as a release publishes them.
 * attw resolves every `exports` entry with its types the way TypeScript users do: `node16` from a CommonJS file and
 * from an ESM file, and `bundler` (Vite, esbuild, webpack). `node10` (no `exports` support at all) is not checked:
 * the packages need Node 20 and describe their subpaths only in `exports`.
 */
export const RESOLUTION_KINDS: readonly ResolutionKind[] = ['node16-cjs', 'node16-esm', 'bundler'];

/** Findings attw reports that are the packages' design, each entry's with the reason. */
export const ALLOWED_PROBLEMS: ReadonlyArray<{ folder: PackageFolder; entrypoint: string; kind: ProblemKind; resolution: ResolutionKind; reason: string }> = [
  {
    folder: 'sdk-core',
    entrypoint: './testing',
    kind: 'CJSResolvesToESM',
    resolution: 'node16-cjs',
    reason:
      '`./testing` is ESM only (README, "./testing (ESM)"; decision 0067): test runners load ESM, and a CommonJS copy would duplicate the platform. From CommonJS it loads with import() (or require() of ESM on Node >= 20.19).',
  },
];

export interface PackageFinding {
  folder: PackageFolder;
  tool: 'publint' | 'attw';
  message: string;
}

/** publint's messages (suggestions too) for one tarball. */
export async function publintFindings(folder: PackageFolder, tarball: string): Promise<PackageFinding[]> {
  const bytes = readFileSync(tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  return messages.map((message) => ({ folder, tool: 'publint', message: `${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}` }));
}

/** attw's problems for one tarball, per entry and resolution kind, without the allowed ones. */
export async function attwFindings(folder: PackageFolder, tarball: string): Promise<PackageFinding[]> {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))));
  if (!analysis.types) return [{ folder, tool: 'attw', message: 'the package ships no types' }];
  const findings: PackageFinding[] = [];
  for (const entrypoint of Object.keys(analysis.entrypoints)) {
    for (const resolution of RESOLUTION_KINDS) {
      for (const problem of analysis.problems) {
        if (!problemAffectsEntrypointResolution(problem, entrypoint, resolution, analysis)) continue;
        if (
          ALLOWED_PROBLEMS.some(
            (allowed) => allowed.folder === folder && allowed.entrypoint === entrypoint && allowed.kind === problem.kind && allowed.resolution === resolution,
          )
        )
          continue;
        findings.push({ folder, tool: 'attw', message: `${entrypoint} (${resolution}): ${describe(problem)}` });
      }
    }
  }
  return findings;
}

/** Every finding of both tools in every packed package; empty when all is well. */
export async function packageFindings(tarballs: Record<PackageFolder, string>): Promise<PackageFinding[]> {
  const findings: PackageFinding[] = [];
  for (const [folder, tarball] of Object.entries(tarballs) as Array<[PackageFolder, string]>) {
    findings.push(...(await publintFindings(folder, tarball)), ...(await attwFindings(folder, tarball)));
  }
  return findings;
}

function describe(problem: Problem): string {
  const info = problemKindInfo[problem.kind];
  const where =
    'typesFileName' in problem ? ` (${problem.typesFileName} / ${problem.implementationFileName})` : 'fileName' in problem ? ` (${problem.fileName})` : '';
  return `${info.title}: ${info.shortDescription}${where} ${info.docsUrl}`;
}
