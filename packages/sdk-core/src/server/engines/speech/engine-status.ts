/**
 * Whether a speech engine can be used, and if not, why (shown to operators and to sessions, e.g.
 * "speech input needs an STT provider").
 *
 * @example
 * const status: EngineStatus = { available: false, reason: 'libpocketsphinx.so.3 not found' };
 */
export interface EngineStatus {
  available: boolean;
  reason?: string;
}
