/**
 * Claude Code, the native dialect: its facts and wire codec load with the registry (every dispatch
 * and `run` needs them), its reader on first use.
 */
import type { Agent } from '../types.js';
import { detectClaude } from './detect.js';
import { claude as facts } from './facts.js';
import { claudeWire } from './wire.js';

export const claude: Agent = {
  name: 'claude',
  detect: detectClaude,
  facts: async () => facts,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'claude', parse: m.parseClaude, serialize: m.serializeClaude };
  },
  wire: async () => claudeWire,
  install: async () => (await import('./install.js')).claudeInstall,
};
