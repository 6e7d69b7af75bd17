import type { NodeImplementation } from '../../runtime/graph-node.js';
import { andNode } from './and-node.js';
import { compareNode } from './compare-node.js';
import { enumSwitchPropertyNode } from './enum-switch-property-node.js';
import { enumSwitchTriggerNode } from './enum-switch-trigger-node.js';
import { filterNode } from './filter-node.js';
import { gateNode } from './gate-node.js';
import { orNode } from './or-node.js';
import { stateMachineNode } from './state-machine/state-machine-node.js';

export const logicImplementations: Record<string, NodeImplementation> = {
  Gate: gateNode,
  Compare: compareNode,
  And: andNode,
  Or: orNode,
  Filter: filterNode,
  EnumSwitchTrigger: enumSwitchTriggerNode,
  EnumSwitchProperty: enumSwitchPropertyNode,
  StateMachine: stateMachineNode,
};
