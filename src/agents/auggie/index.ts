/** Auggie (Augment Code CLI): detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectAuggie } from './detect.js';

export const auggie: Agent = {
  name: 'auggie',
  detect: detectAuggie,
  facts: async () => (await import('./facts.js')).auggie,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'auggie', parse: m.parseAuggie, serialize: m.serializeAuggie };
  },
  install: async () => (await import('./install.js')).auggieInstall,
  wire: async () => (await import('./wire.js')).auggieWire,
};
