import type { VideoFrame } from '../../../engines/media/index.js';

export const BALL_WIDTH = 640;
export const BALL_HEIGHT = 480;
const RADIUS = 20;
/** Backgrounds in turn, one more at each bounce (RGB). */
const BACKGROUNDS: ReadonlyArray<readonly [number, number, number]> = [
  [0, 0, 0],
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 0],
  [255, 0, 255],
  [0, 255, 255],
];

/** A white ball moving at 200 x 150 px/s in a 640x480 box; the background changes at each bounce. */
export class BouncingBallScene {
  private x = BALL_WIDTH / 2;
  private y = BALL_HEIGHT / 2;
  private vx = 200;
  private vy = 150;
  private background = 0;

  /** Moves the ball on by `seconds`; true when it bounced. */
  step(seconds: number): boolean {
    this.x += this.vx * seconds;
    this.y += this.vy * seconds;
    let bounced = false;
    if (this.x - RADIUS < 0 || this.x + RADIUS > BALL_WIDTH) {
      this.vx = -this.vx;
      this.x = Math.min(BALL_WIDTH - RADIUS, Math.max(RADIUS, this.x));
      bounced = true;
    }
    if (this.y - RADIUS < 0 || this.y + RADIUS > BALL_HEIGHT) {
      this.vy = -this.vy;
      this.y = Math.min(BALL_HEIGHT - RADIUS, Math.max(RADIUS, this.y));
      bounced = true;
    }
    if (bounced) this.background = (this.background + 1) % BACKGROUNDS.length;
    return bounced;
  }

  /** The scene now as a frame stamped `timestampMs`. */
  draw(timestampMs: number): VideoFrame {
    const rgba = new Uint8Array(BALL_WIDTH * BALL_HEIGHT * 4);
    const [r, g, b] = BACKGROUNDS[this.background]!;
    new Uint32Array(rgba.buffer).fill(new Uint32Array(new Uint8Array([r, g, b, 255]).buffer)[0]!);
    const white = new Uint8Array([255, 255, 255, 255]);
    for (let row = Math.floor(this.y - RADIUS); row <= Math.ceil(this.y + RADIUS); row += 1) {
      for (let column = Math.floor(this.x - RADIUS); column <= Math.ceil(this.x + RADIUS); column += 1) {
        if (row < 0 || row >= BALL_HEIGHT || column < 0 || column >= BALL_WIDTH) continue;
        if ((column - this.x) ** 2 + (row - this.y) ** 2 <= RADIUS ** 2) rgba.set(white, (row * BALL_WIDTH + column) * 4);
      }
    }
    return { width: BALL_WIDTH, height: BALL_HEIGHT, rgba, timestampMs };
  }

  /** The background colour now (RGB). */
  get backgroundColour(): readonly [number, number, number] {
    return BACKGROUNDS[this.background]!;
  }
}

/** 20 ms of a 440 Hz tone at 48 kHz, the sound of a bounce. */
export function bounceTone(): Int16Array {
  const rate = 48_000;
  const samples = new Int16Array(rate * 0.02);
  for (let index = 0; index < samples.length; index += 1) samples[index] = Math.round(0.3 * 32767 * Math.sin((2 * Math.PI * 440 * index) / rate));
  return samples;
}
