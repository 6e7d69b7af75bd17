/** LiveKit's built-in RPC error codes (the same numbers every SDK uses). */
export const RpcErrorCode = {
  applicationError: 1500,
  connectionTimeout: 1501,
  responseTimeout: 1502,
  recipientDisconnected: 1503,
  unsupportedMethod: 1400,
  recipientNotFound: 1401,
} as const;

/**
 * An RPC failure: raised by `performRpc`, or thrown by a handler to send a specific code back.
 *
 * @example
 * throw new RpcCallError(1500, 'tool failed');
 */
export class RpcCallError extends Error {
  override name = 'RpcCallError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(message);
  }
}
