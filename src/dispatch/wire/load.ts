/**
 * The wire adapter of one agent, loaded on demand: `dispatch --agent D` needs D's only, and each
 * adapter brings its dialect's tables (index.ts holds them all, for the library).
 */
import type { DialectName } from '../../dialects/types.js';
import { claudeWire } from './claude.js';
import type { WireAdapter } from './types.js';

export async function loadWire(name: DialectName): Promise<WireAdapter> {
  switch (name) {
    case 'claude':
      return claudeWire;
    case 'codex':
      return (await import('./codex.js')).codexWire;
    case 'gemini':
      return (await import('./gemini.js')).geminiWire;
    case 'qwen':
      return (await import('./qwen.js')).qwenWire;
    case 'kimi':
      return (await import('./kimi.js')).kimiWire;
    case 'cursor':
      return (await import('./cursor.js')).cursorWire;
    case 'copilot':
      return (await import('./copilot.js')).copilotWire;
    case 'droid':
      return (await import('./droid.js')).droidWire;
    default:
      throw new Error(`unknown agent ${JSON.stringify(name satisfies never)}`);
  }
}
