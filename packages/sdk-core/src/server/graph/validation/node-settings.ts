import { stateMachineProblem } from '../../../contract/graph/catalogue/state-machine.js';
import { parseTurnDetection } from '../../voice/index.js';

/** Settings whose shape is richer than their pad type says: node type -> pad -> why the value cannot be used. */
const SETTING_CHECKS: Record<string, Record<string, (value: unknown) => string | undefined>> = {
  STT: {
    turn_detection: (value) => {
      const parsed = parseTurnDetection(value);
      return parsed.ok ? undefined : parsed.message;
    },
  },
  StateMachine: { configuration: stateMachineProblem },
};

/** Why a node's setting (a property pad's plain value) cannot be used, or undefined. */
export function settingProblem(nodeType: string, padId: string, value: unknown): string | undefined {
  return SETTING_CHECKS[nodeType]?.[padId]?.(value);
}
