import type { RuntimeNode } from '../../runtime/graph-node.js';
import { PropertySinkPad } from '../../runtime/pads.js';
import { describeValue } from '../utility/node-lifetime.js';

/** A value holder's `value` pad with its `changed` announcements. */
export interface ValueHolder {
  current(): unknown;
  /** Stores `value` on `value` (pushed even when equal, as a fresh set); `changed` fires when it differs. */
  set(value: unknown): void;
}

/**
 * Wires the pads String, Integer, Float and Boolean share: `set` stores a value `accept` takes (others are
 * logged and skipped), `emit` pushes the held value again. Returns the holder and the listeners to remove.
 *
 * @example
 * const { holder, listeners } = holdValues(node, { accept: (v) => (typeof v === 'string' ? v : undefined), fallback: '', typeName: 'a text' });
 */
export function holdValues(
  node: RuntimeNode,
  options: { accept: (value: unknown) => unknown; fallback: unknown; typeName: string },
): { holder: ValueHolder; listeners: (() => unknown)[] } {
  const value = node.propertySource('value');
  const changed = node.source('changed');
  const initial = options.accept(value.value) ?? options.fallback;
  if (!Object.is(initial, value.value)) {
    // A stored value of the wrong type: corrected quietly, as the runtime handed it to linked properties.
    value.value = initial;
    for (const sink of value.next) if (sink instanceof PropertySinkPad) sink.value = initial;
  }
  const holder: ValueHolder = {
    current: () => value.value,
    set(next) {
      const differs = !Object.is(next, value.value);
      value.push(next);
      if (differs) changed.push(next);
    },
  };
  const listeners = [
    node.sink('set').onValue((incoming) => {
      const accepted = options.accept(incoming);
      if (accepted === undefined) {
        node.log('warning', `ignored ${describeValue(incoming)}: not ${options.typeName}`, 'set');
        return;
      }
      holder.set(accepted);
    }),
    node.sink('emit').onValue(() => value.push(value.value)),
  ];
  return { holder, listeners };
}
