import type { PublishedAudioTrack } from './published-audio-track.js';
import type { PublishedVideoTrack } from './published-video-track.js';

/** A track published into a room: audio (microphone, screen-share audio, the agent's voice) or video (camera, screen). */
export type PublishedTrack = PublishedAudioTrack | PublishedVideoTrack;
