// Outbound requests to URLs the platform's users give it (webhooks, web_request tools, project LLMs, later MCP
// servers): one address policy, enforced where the socket connects (decision 0087).
export { addressKind, type AddressKind } from './address-ranges.js';
export { outboundGuard, OutboundGuard, type OutboundConnect, type OutboundGuardOptions, type OutboundResolve, type OutboundTarget } from './outbound-guard.js';
export { addressRefusal, hostOf, targetRefusal, urlRefusal, type OutboundPolicy } from './outbound-policy.js';
export { allowSettingOf, OutboundRefusedError, type OutboundRefusalReason } from './outbound-refused.js';
export { outboundRequest, type OutboundRequestInit, type OutboundResponse } from './outbound-request.js';
