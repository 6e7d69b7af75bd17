/** What a `<video>` showed: its size, the frames it presented, and the last frame's average colour and brightest/darkest luma. */
export interface VideoReading {
  width: number;
  height: number;
  frames: number;
  rgb: [number, number, number];
  minLuma: number;
  maxLuma: number;
}

/**
 * Plays `stream` in a muted `<video>` for `durationMs` (after its first frame) and reads it through a canvas.
 *
 * @example
 * const reading = await watchVideo(session.agentVideoStream()!, 1000);
 */
export async function watchVideo(stream: MediaStream, durationMs: number): Promise<VideoReading> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  document.body.append(video);
  try {
    void video.play().catch(() => undefined);
    let frames = 0;
    const count = () => {
      frames += 1;
      video.requestVideoFrameCallback(count);
    };
    video.requestVideoFrameCallback(count);
    // The first frame, for at most 10 s (a reading of 0 frames says none came).
    const giveUp = performance.now() + 10_000;
    await new Promise<void>((resolve) => {
      const started = () => (video.videoWidth > 0 || performance.now() > giveUp ? resolve() : setTimeout(started, 50));
      started();
    });
    await new Promise((resolve) => setTimeout(resolve, durationMs));
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(video, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let [sumRed, sumGreen, sumBlue] = [0, 0, 0];
    let minLuma = 255;
    let maxLuma = 0;
    for (let index = 0; index < pixels.length; index += 4) {
      const [red, green, blue] = [pixels[index]!, pixels[index + 1]!, pixels[index + 2]!];
      sumRed += red;
      sumGreen += green;
      sumBlue += blue;
      const luma = 0.299 * red + 0.587 * green + 0.114 * blue;
      minLuma = Math.min(minLuma, luma);
      maxLuma = Math.max(maxLuma, luma);
    }
    const pixelCount = pixels.length / 4;
    const rgb: [number, number, number] = [Math.round(sumRed / pixelCount), Math.round(sumGreen / pixelCount), Math.round(sumBlue / pixelCount)];
    return { width: video.videoWidth, height: video.videoHeight, frames, rgb, minLuma: Math.round(minLuma), maxLuma: Math.round(maxLuma) };
  } finally {
    video.remove();
  }
}
