import { spawn, spawnSync } from 'node:child_process';

/** The ffmpeg program the platform runs (Debian's `ffmpeg`; `PALAVER_FFMPEG` names another). */
export function ffmpegProgram(): string {
  return process.env.PALAVER_FFMPEG ?? 'ffmpeg';
}

/** Raised when ffmpeg cannot do a job: `missing` when the program is not installed, else its own message. */
export class FfmpegError extends Error {
  override readonly name = 'FfmpegError';
  constructor(
    message: string,
    readonly missing: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const availability = new Map<string, boolean>();

/** Whether the ffmpeg program runs here (asked once per program name). */
export function ffmpegAvailable(): boolean {
  const program = ffmpegProgram();
  let available = availability.get(program);
  if (available === undefined) {
    available = spawnSync(program, ['-version'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
    availability.set(program, available);
  }
  return available;
}

export interface FfmpegJob {
  /** Arguments after the program name; `-hide_banner -loglevel error` come first. */
  args: readonly string[];
  /** Bytes written to ffmpeg's stdin (`pipe:0`), in order, waiting for the pipe to drain. */
  input?: Iterable<Uint8Array>;
  signal?: AbortSignal;
  /** ffmpeg is killed after this long (default 30 s). */
  timeoutMs?: number;
}

/**
 * Runs ffmpeg once as a child process: `input` on stdin, the whole of stdout as the answer. The process is
 * killed when the signal aborts or the time is up; a non-zero exit is a {@link FfmpegError} with ffmpeg's message.
 *
 * @example
 * const pcm = await runFfmpeg({ args: ['-f', 'flac', '-i', 'pipe:0', '-f', 's16le', '-ac', '1', 'pipe:1'], input: [flacBytes] });
 */
export async function runFfmpeg(job: FfmpegJob): Promise<Buffer> {
  const child = spawn(ffmpegProgram(), ['-hide_banner', '-loglevel', 'error', ...job.args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const output: Buffer[] = [];
  const errors: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  const kill = (): void => void child.kill('SIGKILL');
  const timer = setTimeout(kill, job.timeoutMs ?? 30_000);
  job.signal?.addEventListener('abort', kill, { once: true });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new FfmpegError(`ffmpeg is not installed (looked for '${ffmpegProgram()}')`, true, { cause: error })
          : new FfmpegError(error.message, false, { cause: error }),
      ),
    );
    child.once('close', resolve);
  });
  // Awaited after stdin is written; a spawn failure meanwhile is not an unhandled rejection.
  exited.catch(() => undefined);
  child.stdin.on('error', () => undefined);
  const drained = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        child.stdin.off('drain', done).off('close', done);
        resolve();
      };
      child.stdin.on('drain', done).on('close', done);
    });
  for (const bytes of job.input ?? []) {
    if (child.stdin.destroyed) break;
    if (!child.stdin.write(bytes)) await drained();
  }
  child.stdin.end();
  try {
    const code = await exited;
    if (code !== 0) throw new FfmpegError(Buffer.concat(errors).toString().trim().slice(0, 300) || `ffmpeg exited with ${code}`, false);
    return Buffer.concat(output);
  } finally {
    clearTimeout(timer);
    job.signal?.removeEventListener('abort', kill);
  }
}
