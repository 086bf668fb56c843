/**
 * The wire adapters, one per dialect: how `agent-hooks dispatch` decodes each agent's hook payload
 * and answers in its convention. The agents' facts (names, tables, detection) are src/dialects/.
 */
import type { DialectName } from '../../dialects/types.js';
import { claudeWire } from './claude.js';
import { codexWire } from './codex.js';
import { copilotWire } from './copilot.js';
import { cursorWire } from './cursor.js';
import { droidWire } from './droid.js';
import { geminiWire } from './gemini.js';
import { kimiWire } from './kimi.js';
import { qwenWire } from './qwen.js';
import type { WireAdapter } from './types.js';

export const WIRE: Readonly<Record<DialectName, WireAdapter>> = {
  claude: claudeWire,
  codex: codexWire,
  gemini: geminiWire,
  qwen: qwenWire,
  kimi: kimiWire,
  cursor: cursorWire,
  copilot: copilotWire,
  droid: droidWire,
};

export function wireOf(name: DialectName): WireAdapter {
  return WIRE[name];
}

export type * from './types.js';
