import type { RealtimeErrorDetail } from '../../../contract/openai-realtime-events.js';

/** A client event the session cannot act on: answered with an `error` event, the socket stays open. */
export class RealtimeRequestError extends Error {
  override name = 'RealtimeRequestError';

  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string = 'invalid_value',
  ) {
    super(message);
  }

  detail(eventId: string | undefined): RealtimeErrorDetail {
    return { type: 'invalid_request_error', code: this.code, message: this.message, param: this.param, event_id: eventId ?? null };
  }
}
