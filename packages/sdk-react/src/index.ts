/**
 * `@palaver/sdk-react`: React bindings for Palaver.
 *
 * @example
 * import { PalaverProvider, usePalaverClient } from '@palaver/sdk-react';
 */
export { PalaverProvider, useOptionalPalaverClient, usePalaverClient } from './palaver-provider.js';
export type { PalaverProviderProps } from './palaver-provider.js';
export { useVoiceAgent, VoiceAgentProvider } from './use-voice-agent.js';
export { shallowEqual } from './use-selected-snapshot.js';
export { useClientTool, useClientTools } from './use-client-tool.js';
export type { UseVoiceAgentOptions, VoiceAgent } from './use-voice-agent.js';
export { useAudioLevels } from './use-audio-levels.js';
export { useAgentAudioStream } from './use-agent-audio-stream.js';
export type { AudioLevels, AudioLevelSource, UseAudioLevelsOptions } from './use-audio-levels.js';
export { useAudioDevices } from './use-audio-devices.js';
export { useCamera } from './use-camera.js';
export type { Camera, CameraSource } from './use-camera.js';
export { useScreenShare } from './use-screen-share.js';
export type { ScreenShare, ScreenShareSource } from './use-screen-share.js';
export { useAgentVideo } from './use-agent-video.js';
export type { AgentVideoSource } from './use-agent-video.js';
export type { AudioDevices } from './use-audio-devices.js';
export { AppRunProvider, useAppRun, usePad } from './use-app-run.js';
export type { AppRunControls, PadState, UseAppRunOptions } from './use-app-run.js';
