/** Copilot CLI: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectCopilot } from './detect.js';

export const copilot: Agent = {
  name: 'copilot',
  detect: detectCopilot,
  facts: async () => (await import('./facts.js')).copilot,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'copilot', parse: m.parseCopilot, serialize: m.serializeCopilot };
  },
  wire: async () => (await import('./wire.js')).copilotWire,
  install: async () => (await import('./install.js')).copilotInstall,
};
