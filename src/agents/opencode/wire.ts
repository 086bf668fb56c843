/** OpenCode's wire: the payload our plugin builds (src/plugins/opencode.ts) and the answer it applies. */
import { pluginWire } from '../shared/plugin-wire.js';
import { OPENCODE_NATIVE_EVENTS, OPENCODE_TOOL_TABLE } from './facts.js';

export const opencodeWire = pluginWire({
  name: 'opencode',
  title: 'OpenCode',
  events: OPENCODE_NATIVE_EVENTS,
  tools: OPENCODE_TOOL_TABLE,
  // permission.ask is never triggered: no hook answer reaches a person.
  canAsk: () => false,
});
