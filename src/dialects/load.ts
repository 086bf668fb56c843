/**
 * One dialect's adapter, loaded on demand: index.ts imports all of them (the library, `convert`,
 * the config readers), while dispatch's no-hooks check needs only the ones whose files it finds
 * (detect.ts says which). Each adapter is its own module, so a bundle keeps each a lazy chunk.
 */
import { claude } from './claude.js';
import type { Dialect, DialectName } from './types.js';

export async function loadDialect(name: DialectName): Promise<Dialect> {
  switch (name) {
    case 'claude':
      return claude;
    case 'codex':
      return (await import('./codex.js')).codex;
    case 'gemini':
      return (await import('./gemini.js')).gemini;
    case 'qwen':
      return (await import('./qwen.js')).qwen;
    case 'kimi':
      return (await import('./kimi.js')).kimi;
    case 'cursor':
      return (await import('./cursor.js')).cursor;
    case 'copilot':
      return (await import('./copilot.js')).copilot;
    case 'droid':
      return (await import('./droid.js')).droid;
    default:
      throw new Error(`unknown dialect ${JSON.stringify(name satisfies never)}`);
  }
}
