/**
 * Kilo CLI (`@kilocode/cli`, platform package `@kilocode/cli-linux-x64`): a fork of OpenCode with
 * the same plugin interface and trigger sites, its plugins in `.kilo/plugins/` (a plugin in
 * `.opencode/plugin/` is not loaded). Our plugin is OpenCode's (src/plugins/opencode.ts); the
 * tables are OpenCode's (src/agents/opencode/facts.ts), the title is Kilo's.
 */
import type { Dialect } from '../types.js';
import {
  OPENCODE_EVENTS,
  OPENCODE_NATIVE_EVENTS,
  OPENCODE_TOOL_TABLE,
  OPENCODE_TOOLS,
  opencode,
  permissionAskNeverFires,
} from '../opencode/facts.js';

export { OPENCODE_NATIVE_EVENTS as KILO_NATIVE_EVENTS, OPENCODE_TOOL_TABLE as KILO_TOOL_TABLE };

export const kilo: Dialect = {
  ...opencode,
  name: 'kilo',
  title: 'Kilo CLI',
  events: OPENCODE_EVENTS,
  tools: OPENCODE_TOOLS,
  undeliverable: [permissionAskNeverFires('Kilo CLI 7.7.9')],
};
