/** Factory Droid: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectDroid } from './detect.js';

export const droid: Agent = {
  name: 'droid',
  detect: detectDroid,
  facts: async () => (await import('./facts.js')).droid,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'droid', parse: m.parseDroid, serialize: m.serializeDroid };
  },
  wire: async () => (await import('./wire.js')).droidWire,
  install: async () => (await import('./install.js')).droidInstall,
};
