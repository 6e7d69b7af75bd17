/**
 * What the connector needs only once it connects, loaded with `import()` so that the up-front bundle holds neither
 * zod (the contract's schemas that check what arrives) nor ky (the REST client that starts sessions and runs): issue 30,
 * the connector without livekit-client under 25 kB gzipped. The room link parses every packet and metadata it receives,
 * so the reducer takes typed inputs.
 */
export { HttpClient } from '../client/http-client.js';
export { AppRuns } from '../client/resources/app-runs.js';
export { RealtimeSessions } from '../client/resources/realtime.js';
export { SDKConnectOptions, SDKSendChatMessageParams } from '../contract/sdk.js';
export { LiveKitRoomLink, joinError } from './livekit-room-link.js';
