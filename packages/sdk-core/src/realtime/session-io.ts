/**
 * What the connector needs only once it connects, loaded with `import()` so that the up-front bundle holds neither ky
 * (the REST client that starts sessions and runs) nor the checks of what arrives: issue 30, the connector without
 * livekit-client under 25 kB gzipped, this chunk included (decision 0119). The room link checks every packet and
 * metadata it receives (`received/`, the contract's types without zod's runtime), so the reducer takes typed inputs.
 */
export { HttpClient } from '../client/http-client.js';
export { AppRuns } from '../client/resources/app-runs.js';
export { RealtimeSessions } from '../client/resources/realtime.js';
export { checkChatMessageParams, checkConnectOptions } from './received/packet-checks.js';
export { LiveKitRoomLink, joinError } from './livekit-room-link.js';
