import type { AudioSource } from './audio-levels.js';

/** Microphone louder than this (0..1, unsmoothed) is the human speaking. */
const HUMAN_SPEAKING = 0.06;
/** Agent audio louder than this is the agent speaking. */
const AGENT_SPEAKING = 0.04;
/** Agent quiet this long ends its utterance (pauses between words do not). */
const AGENT_QUIET_MS = 400;
const SAMPLE_MS = 20;

/**
 * The turn latency as the human experiences it, measured in the browser: from the last moment the microphone
 * carried speech to the first moment the agent's audio is heard after it. Samples both levels every 20 ms;
 * one measurement per agent utterance that follows human speech.
 *
 * @example
 * const tracker = new TurnLatencyTracker(() => session.timingLevels(), (ms) => console.log(`answered in ${ms} ms`));
 * tracker.start(); // while connected
 * tracker.stop();
 */
export class TurnLatencyTracker {
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastHumanSpeechAt: number | undefined;
  private humanSpokeSinceAgent = false;
  private agentSpeaking = false;
  private agentLastLoudAt = 0;

  constructor(
    private readonly levels: () => Record<AudioSource, number>,
    private readonly measured: (latencyMs: number) => void,
  ) {}

  get running(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    this.lastHumanSpeechAt = undefined;
    this.humanSpokeSinceAgent = false;
    this.agentSpeaking = false;
    this.timer = setInterval(() => this.sample(performance.now()), SAMPLE_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One reading of both levels at `now` (exposed for tests). */
  sample(now: number, levels = this.levels()): void {
    const agentLoud = levels.agent > AGENT_SPEAKING;
    // The agent's own voice leaking into the microphone is not the human speaking.
    if (levels.microphone > HUMAN_SPEAKING && !agentLoud && !this.agentSpeaking) {
      this.lastHumanSpeechAt = now;
      this.humanSpokeSinceAgent = true;
    }
    if (agentLoud) {
      if (!this.agentSpeaking && this.humanSpokeSinceAgent && this.lastHumanSpeechAt !== undefined) {
        this.measured(Math.round(now - this.lastHumanSpeechAt));
        this.humanSpokeSinceAgent = false;
      }
      this.agentSpeaking = true;
      this.agentLastLoudAt = now;
    } else if (this.agentSpeaking && now - this.agentLastLoudAt > AGENT_QUIET_MS) {
      this.agentSpeaking = false;
    }
  }
}
