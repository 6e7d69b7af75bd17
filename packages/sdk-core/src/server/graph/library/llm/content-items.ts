import type { ContextMessageContentItem, ContextMessageVideo } from '../../../../contract/graph/pad-values.js';
import { ClipEncodingError, encodeMp4Clip, jpegDataUrl, type VideoFrame } from '../../../engines/media/index.js';
import { AudioClip, isTextStream } from '../../runtime/stream-values.js';
import { AVClip, VideoClip, isVideoPacket } from '../../runtime/video-values.js';

/** Frames of a clip kept as pictures beside its MP4 (for models that take images but not video). */
const SAMPLED_FRAMES = 4;

function sampled(frames: readonly VideoFrame[]): VideoFrame[] {
  if (frames.length <= SAMPLED_FRAMES) return [...frames];
  return Array.from({ length: SAMPLED_FRAMES }, (_, index) => frames[Math.round((index * (frames.length - 1)) / (SAMPLED_FRAMES - 1))]!);
}

async function videoItem(clip: VideoClip, warn: (message: string) => void, signal: AbortSignal): Promise<ContextMessageContentItem> {
  let url: string | null = null;
  if (clip.frames.length >= 2) {
    try {
      url = `data:video/mp4;base64,${(await encodeMp4Clip(clip.frames, signal)).toString('base64')}`;
    } catch (error) {
      if (!(error instanceof ClipEncodingError)) throw error;
      warn(`the clip is sent as pictures: ${error.message}`);
    }
  }
  const frames = await Promise.all(sampled(clip.frames).map((frame) => jpegDataUrl(frame)));
  const video: ContextMessageVideo = { url, frames, frame_count: clip.frames.length, duration: clip.duration };
  return { content_type: 'video', text: null, video };
}

function transcriptionItem(clip: AudioClip): ContextMessageContentItem[] {
  return clip.transcription && clip.transcription.trim() !== '' ? [{ content_type: 'text', text: clip.transcription }] : [];
}

/**
 * The content items of a value for a context message, as the engine makes them: text as is, a text stream once it
 * ends (undefined when it was cancelled), an audio clip by its transcription, a frame as a JPEG image, a video clip
 * as an MP4 (and sampled frames), an AV clip as both. Undefined for values that are not content.
 */
export async function contentItemsOf(value: unknown, warn: (message: string) => void, signal: AbortSignal): Promise<ContextMessageContentItem[] | undefined> {
  if (typeof value === 'string') return value.trim() === '' ? [] : [{ content_type: 'text', text: value }];
  if (isTextStream(value)) {
    const text = await value.readAll();
    if (value.wasCancelled) return undefined;
    return text.trim() === '' ? [] : [{ content_type: 'text', text }];
  }
  if (value instanceof AudioClip) return transcriptionItem(value);
  if (isVideoPacket(value)) {
    const { frame } = value;
    return [{ content_type: 'image', text: null, image: { url: await jpegDataUrl(frame), width: frame.width, height: frame.height } }];
  }
  if (value instanceof VideoClip) return [await videoItem(value, warn, signal)];
  if (value instanceof AVClip) return [...transcriptionItem(value.audio), await videoItem(value.video, warn, signal)];
  return undefined;
}
