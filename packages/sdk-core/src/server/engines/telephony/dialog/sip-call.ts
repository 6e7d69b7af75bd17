import type { SipRequest, SipResponse } from '../message/sip-message.js';
import type { CallBridge } from '../bridge/call-bridge.js';
import type { MediaClock } from '../rtp/media-clock.js';
import { ROOM_FRAME_SAMPLES } from '../rtp/call-codec.js';
import type { RtpSession } from '../rtp/rtp-session.js';
import type { SipDialog } from './sip-dialog.js';
import type { SessionTimer } from './session-timer.js';

/** Why a call ended (logged, and reported as the participant's last `sip.callStatus`). */
export type CallEndReason = 'remote-hangup' | 'room-ended' | 'no-ack' | 'transferred' | 'shutdown' | 'max-duration' | 'session-expired' | 'failed';

export interface SipCallOptions {
  direction: 'inbound' | 'outbound';
  dialog: SipDialog;
  rtp: RtpSession;
  clock: MediaClock;
  /** Sends an in-dialog request through a client transaction. */
  send(request: SipRequest): Promise<SipResponse>;
  onEnded(call: SipCall, reason: CallEndReason): void;
}

/**
 * A call in progress: its dialog, its RTP, and its bridge into the room. Either side can end it: a BYE from
 * the phone, the room removing the participant (the agent or the API ended the session), or shutdown.
 */
export class SipCall {
  state: 'setup' | 'active' | 'ended' = 'setup';
  bridge: CallBridge | undefined;
  /** When media began (ms since the epoch); the call's seconds run from here. */
  answeredAt: number | undefined;
  /** The SDP we last sent (answer or offer): what a re-INVITE refresh offers again. */
  localSdp = '';
  /** Session timer (RFC 4028), once the call is answered. */
  sessionTimer: SessionTimer | undefined;
  /** Answers a PRACK (RFC 3262) for the reliable provisional we sent; false when it names none. */
  prack: ((rack: string | undefined) => boolean) | undefined;
  /** Ends the call's other timers (a reliable provisional's retransmissions). */
  readonly cleanups: Array<() => void> = [];
  private stopClock: (() => void) | undefined;
  private stopPrompt: (() => void) | undefined;

  constructor(private readonly options: SipCallOptions) {}

  get callId(): string {
    return this.options.dialog.callId;
  }

  get dialog(): SipDialog {
    return this.options.dialog;
  }

  get rtp(): RtpSession {
    return this.options.rtp;
  }

  get direction(): 'inbound' | 'outbound' {
    return this.options.direction;
  }

  /** The call is answered; media flows both ways once it has a bridge (now, or with {@link attach} after a PIN). */
  activate(bridge?: CallBridge): void {
    if (this.state === 'ended') return;
    this.state = 'active';
    this.answeredAt = Date.now();
    if (bridge) this.attach(bridge);
  }

  /** The call's room: the room's audio goes to the phone from now on. */
  attach(bridge: CallBridge): void {
    if (this.state === 'ended') return;
    this.stopPlaying();
    this.bridge = bridge;
    this.stopClock?.();
    this.stopClock = this.options.clock.add(() => this.options.rtp.sendFrame(bridge.nextFrame()));
  }

  /**
   * Plays 48 kHz mono PCM to the phone (a prompt, before the call has its room) on the call's clock; resolves when it
   * ended or was cut short ({@link stopPlaying}, another prompt, the room's audio, the call's end).
   */
  play(pcm: Int16Array): Promise<void> {
    this.stopPlaying();
    if (this.state === 'ended' || this.bridge) return Promise.resolve();
    return new Promise((resolve) => {
      let offset = 0;
      const finish = () => {
        remove();
        if (this.stopPrompt === finish) this.stopPrompt = undefined;
        resolve();
      };
      const remove = this.options.clock.add(() => {
        if (offset >= pcm.length) return finish();
        const frame = new Int16Array(ROOM_FRAME_SAMPLES);
        frame.set(pcm.subarray(offset, offset + ROOM_FRAME_SAMPLES));
        offset += ROOM_FRAME_SAMPLES;
        this.options.rtp.sendFrame(frame);
      });
      this.stopPrompt = finish;
    });
  }

  stopPlaying(): void {
    this.stopPrompt?.();
  }

  /** Ends the call from our side: BYE to the phone (when the dialog is up), then the room and media go. */
  async hangUp(reason: CallEndReason): Promise<void> {
    if (this.state === 'ended') return;
    const wasActive = this.state === 'active';
    await this.teardown(reason);
    if (wasActive) await this.options.send(this.options.dialog.request('BYE')).catch(() => undefined);
  }

  /** The phone ended the call (BYE or CANCEL): no request back, just the room and media. */
  async remoteEnded(): Promise<void> {
    await this.teardown('remote-hangup');
  }

  async sendRequest(request: SipRequest): Promise<SipResponse> {
    return this.options.send(request);
  }

  private async teardown(reason: CallEndReason): Promise<void> {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.stopClock?.();
    this.stopPlaying();
    this.sessionTimer?.stop();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.options.rtp.close();
    this.options.onEnded(this, reason);
    await this.bridge?.leave().catch(() => undefined);
  }
}
