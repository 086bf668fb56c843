/** Kilo CLI's wire: OpenCode's (the same plugin), with Kilo's name in its reasons. */
import { pluginWire } from '../shared/plugin-wire.js';
import { KILO_NATIVE_EVENTS, KILO_TOOL_TABLE } from './facts.js';

export const kiloWire = pluginWire({
  name: 'kilo',
  title: 'Kilo CLI',
  events: KILO_NATIVE_EVENTS,
  tools: KILO_TOOL_TABLE,
  canAsk: () => false,
});
