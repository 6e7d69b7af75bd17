/**
 * A YUV4MPEG2 (`.y4m`) clip for Chromium's fake camera (`--use-file-for-fake-video-capture`, which loops it): every frame
 * one colour (BT.601, limited range, 4:2:0), so a receiver can check the colour it decoded. Written at test time; no
 * binary is committed.
 *
 * @example
 * writeFileSync(file, y4mClip({ width: 640, height: 360, fps: 30, frames: 30, rgb: [30, 160, 60] }));
 */
export function y4mClip(options: { width: number; height: number; fps: number; frames: number; rgb: readonly [number, number, number] }): Buffer {
  const { width, height, fps, frames } = options;
  const [red, green, blue] = options.rgb.map((value) => value / 255) as [number, number, number];
  const luma = Math.round(16 + 65.481 * red + 128.553 * green + 24.966 * blue);
  const cb = Math.round(128 - 37.797 * red - 74.203 * green + 112 * blue);
  const cr = Math.round(128 + 112 * red - 93.786 * green - 18.214 * blue);
  const chroma = (width / 2) * (height / 2);
  const frame = Buffer.alloc(width * height + 2 * chroma);
  frame.fill(luma, 0, width * height);
  frame.fill(cb, width * height, width * height + chroma);
  frame.fill(cr, width * height + chroma);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const marker = Buffer.from('FRAME\n');
  return Buffer.concat([header, ...Array.from({ length: frames }, () => [marker, frame]).flat()]);
}
