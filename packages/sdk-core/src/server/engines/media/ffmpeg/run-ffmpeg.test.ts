import { afterEach, describe, expect, it } from 'vitest';
import { requireComponent } from '../../../../../tests/support/components.js';
import { ffmpegAvailable, FfmpegError, runFfmpeg } from './run-ffmpeg.js';

const present = requireComponent('ffmpeg', ffmpegAvailable(), 'apt-get install ffmpeg');

describe('runFfmpeg', () => {
  const previous = process.env.PALAVER_FFMPEG;
  afterEach(() => {
    if (previous === undefined) delete process.env.PALAVER_FFMPEG;
    else process.env.PALAVER_FFMPEG = previous;
  });

  it.skipIf(!present)('feeds stdin and answers the whole of stdout', async () => {
    const pcm = new Int16Array(16_000).map((_, index) => Math.round(8000 * Math.sin(index / 5)));
    const args = ['-f', 's16le', '-ar', '16000', '-ac', '1', '-i', 'pipe:0', '-ar', '8000', '-f', 's16le', 'pipe:1'];
    const output = await runFfmpeg({ args, input: [new Uint8Array(pcm.buffer)] });
    expect(Math.abs(output.length / 2 - 8000)).toBeLessThan(64);
  });

  it.skipIf(!present)("fails with ffmpeg's own message when the job fails", async () => {
    const failed = runFfmpeg({ args: ['-f', 'flac', '-i', 'pipe:0', '-f', 's16le', 'pipe:1'], input: [new TextEncoder().encode('not flac')] });
    await expect(failed).rejects.toBeInstanceOf(FfmpegError);
    await expect(failed).rejects.toMatchObject({ missing: false, message: expect.stringMatching(/\S/) as unknown });
  });

  it('says ffmpeg is missing when the program is not installed', async () => {
    process.env.PALAVER_FFMPEG = '/nonexistent/palaver-ffmpeg';
    expect(ffmpegAvailable()).toBe(false);
    await expect(runFfmpeg({ args: ['-version'], input: [new Uint8Array(10)] })).rejects.toMatchObject({
      missing: true,
      message: expect.stringContaining('not installed') as unknown,
    });
  });

  it.skipIf(!present)('is killed when the signal aborts', async () => {
    const controller = new AbortController();
    const running = runFfmpeg({ args: ['-re', '-f', 'lavfi', '-i', 'sine=d=30', '-f', 's16le', 'pipe:1'], signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(FfmpegError);
  });
});
