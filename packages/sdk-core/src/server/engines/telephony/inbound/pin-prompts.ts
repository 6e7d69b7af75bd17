import type { SipCall } from '../dialog/sip-call.js';
import type { EndpointContext } from '../endpoint-context.js';
import type { PinEntry } from './pin-entry.js';

/** What a caller hears while a dispatch rule's PIN is asked for (LiveKit SIP asks the same way). */
export const PIN_PROMPTS = {
  enter: 'Please enter the PIN followed by the pound key.',
  wrong: 'That PIN is not right. Please enter the PIN followed by the pound key.',
  failed: 'That PIN is not right. Goodbye.',
} as const;

/**
 * Asks for the rule's PIN out loud: the prompt at once, again after each wrong entry, a goodbye after the last one
 * (heard before the call ends). A key press cuts the prompt short. Resolves with the PIN entry's result. Without a
 * prompt speaker (or when synthesis fails), the PIN is keyed in silence as before.
 */
export async function askForPin(context: EndpointContext, call: SipCall, pin: PinEntry): Promise<boolean> {
  let speaking: Promise<void> = Promise.resolve();
  const say = (text: string) => {
    speaking = (async () => {
      try {
        const pcm = await context.prompts?.(text);
        if (pcm && call.state !== 'ended') await call.play(pcm);
      } catch (error) {
        context.logger.warn({ err: error, callId: call.callId }, 'SIP prompt could not be spoken');
      }
    })();
  };
  pin.onWrong = (triesLeft) => say(triesLeft > 0 ? PIN_PROMPTS.wrong : PIN_PROMPTS.failed);
  say(PIN_PROMPTS.enter);
  // The other prompts are synthesised now, behind the first, so a wrong PIN is answered at once.
  for (const text of [PIN_PROMPTS.wrong, PIN_PROMPTS.failed]) context.prompts?.(text).catch(() => undefined);
  const accepted = await pin.result;
  if (!accepted) await speaking;
  call.stopPlaying();
  return accepted;
}
