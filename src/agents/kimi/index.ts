/** Kimi Code: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectKimi } from './detect.js';

export const kimi: Agent = {
  name: 'kimi',
  detect: detectKimi,
  facts: async () => (await import('./facts.js')).kimi,
  reader: async () => {
    const m = await import('./reader.js');
    return { name: 'kimi', parse: m.parseKimi, serialize: m.serializeKimi };
  },
  wire: async () => (await import('./wire.js')).kimiWire,
  install: async () => (await import('./install.js')).kimiInstall,
};
