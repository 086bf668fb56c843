/** Letta Code: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectLetta } from './detect.js';

export const letta: Agent = {
  name: 'letta',
  detect: detectLetta,
  facts: async () => (await import('./facts.js')).letta,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'letta', parse: m.parseLetta, serialize: m.serializeLetta };
  },
  install: async () => (await import('./install.js')).lettaInstall,
  wire: async () => (await import('./wire.js')).lettaWire,
};
