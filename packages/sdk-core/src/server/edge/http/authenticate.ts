import type { AuthClass } from '../../../contract/define-route.js';
import { EPHEMERAL_KEY_PREFIX } from '../../../contract/openai-realtime.js';
import { AuthenticationError, BadRequestError, PermissionDeniedError, ProjectDisabledError } from '../../../errors/api-error.js';
import type { Principal } from '../../kernel/principal.js';
import type { Services } from '../../domain/services.js';
import type { HeaderReader } from './node-headers.js';

const HUMAN_HEADER = 'x-human-id';
const MAX_HUMAN_LENGTH = 256;

function readHuman(header: HeaderReader): string | null {
  const value = header(HUMAN_HEADER);
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_HUMAN_LENGTH) {
    throw new BadRequestError(`${HUMAN_HEADER}: must be 1 to ${MAX_HUMAN_LENGTH} characters`);
  }
  return trimmed;
}

/**
 * Resolves the caller from `x-api-key` or `Authorization: Bearer <usage token>`, and enforces the
 * route's auth class: usage tokens never reach API-key-only (K) operations.
 */
export async function authenticate(header: HeaderReader, auth: AuthClass, services: Services, options: { humanHeader: boolean }): Promise<Principal> {
  const authorization = header('authorization');
  // OpenAI-compatible clients send their key only as `Authorization: Bearer <key>`: a platform API key
  // (`pk_...`, never a JWT) presented that way counts as `x-api-key` (docs/decisions/0040-openai-client-auth.md).
  const bearer = authorization === undefined ? undefined : /^Bearer\s+(pk_\S+)$/i.exec(authorization.trim())?.[1];
  const apiKey = header('x-api-key') ?? bearer ?? null;
  let principal: Principal;
  let projectDisabled: boolean;

  if (apiKey !== null) {
    const key = await services.apiKeys.verify(apiKey.trim());
    if (!key) throw new AuthenticationError('Invalid API key');
    principal = {
      project: key.project,
      kind: 'key',
      human: options.humanHeader ? readHuman(header) : null,
      credentialId: key.id,
    };
    projectDisabled = key.projectDisabled;
  } else if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) throw new AuthenticationError('Authorization header must be "Bearer <usage token>"');
    // An ephemeral key of OpenAI's Realtime API (`ek_` + a usage token, decision 0113) is that usage token.
    const bearerToken = match[1]!.startsWith(EPHEMERAL_KEY_PREFIX) ? match[1]!.slice(EPHEMERAL_KEY_PREFIX.length) : match[1]!;
    const token = await services.usageTokens.verify(bearerToken);
    if (!token) throw new AuthenticationError('Usage token is invalid, expired or revoked');
    if (auth === 'K') throw new PermissionDeniedError('This operation requires an API key (x-api-key); usage tokens cannot call it');
    const headerHuman = readHuman(header);
    if (headerHuman !== null && headerHuman !== token.human) {
      throw new PermissionDeniedError(`${HUMAN_HEADER} does not match the usage token's human`);
    }
    principal = { project: token.project, kind: 'token', human: token.human, credentialId: token.id };
    projectDisabled = token.projectDisabled;
  } else {
    throw new AuthenticationError('Missing credentials: send x-api-key or Authorization: Bearer <usage token>');
  }

  if (projectDisabled) throw new ProjectDisabledError('This project is disabled');
  return principal;
}
