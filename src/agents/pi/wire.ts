/** Pi's wire: the payload our extension builds (src/plugins/pi.ts) and the answer it applies. */
import { pluginWire } from '../shared/plugin-wire.js';
import { PI_NATIVE_EVENTS, PI_TOOL_TABLE } from './facts.js';

export const piWire = pluginWire({
  name: 'pi',
  title: 'Pi',
  events: PI_NATIVE_EVENTS,
  tools: PI_TOOL_TABLE,
  // An ask reaches a person only where Pi has a UI (ctx.hasUI, which the extension sends); `pi -p` has none.
  canAsk: (raw) => raw.has_ui === true,
});
