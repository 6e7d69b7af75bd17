export { SipEndpoint, type SipEndpointOptions } from './sip-endpoint.js';
