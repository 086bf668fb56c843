/** Cline CLI: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectCline } from './detect.js';

export const cline: Agent = {
  name: 'cline',
  detect: detectCline,
  facts: async () => (await import('./facts.js')).cline,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'cline', parse: m.parseCline, serialize: m.serializeCline };
  },
  install: async () => (await import('./install.js')).clineInstall,
  wire: async () => (await import('./wire.js')).clineWire,
};
