/** What a call's peer reports. */
export interface CallPeerEvents {
  /** The client's data channel opened. */
  channelOpen(): void;
  /** A text message on the data channel. */
  message(text: string): void;
  /** PCM of the client's microphone, at the call's sample rate. */
  audio(pcm: Int16Array): void;
  /** The peer connection or its data channel closed (the client hung up, or the network failed). */
  closed(): void;
}

/** One answered WebRTC call. */
export interface CallPeer {
  /** The SDP answer, with its candidates. */
  sdp: string;
  /** Sends a text message on the data channel (dropped before it opens or after it closes). */
  send(text: string): void;
  /** The agent's track: PCM at the call's sample rate, paced at real time; `clear` drops what is queued. */
  audio: { write(pcm: Int16Array): void; clear(): void };
  close(): void;
}
