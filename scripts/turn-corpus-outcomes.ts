/**
 * Prints, for every utterance of the turn-taking corpus, what the agent's listener heard at each pause (the text, the
 * wait it chose, the scorer's probability, the decoder's early readings) and whether the turn ended during the pause
 * (premature). For finding out why a premature answer happens; the bench (`pnpm bench voice-agent`) gives the rates.
 *
 * Run: `pnpm tsx scripts/turn-corpus-outcomes.ts`.
 */
import { createTestPlatform, runTurnCorpus, DEFAULT_TURN_DETECTION } from '@palaver/sdk-core/testing';
const test = await createTestPlatform();
const outcomes = await runTurnCorpus(test.server.services.speech, DEFAULT_TURN_DETECTION);
for (const o of outcomes) {
  console.log(
    `${o.premature ? 'PREMATURE' : 'ok       '} ${o.item.id} "${o.item.before}" | pauses: ${o.pauses.map((p) => `"${p.text}" wait ${p.waitMs} p=${p.probability}`).join(' ; ')} | early: ${o.early.map((e) => `"${e}"`).join(' ; ')} | texts: ${o.texts.join(' / ')}`,
  );
}
console.log(outcomes.filter((o) => o.premature).length, '/', outcomes.length);
await test.close();
