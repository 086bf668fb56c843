/** Gemini CLI: detection at hand, its facts, reader and wire codec loaded on first use. */
import type { Agent } from '../types.js';
import { detectGemini } from './detect.js';

export const gemini: Agent = {
  name: 'gemini',
  detect: detectGemini,
  facts: async () => (await import('./facts.js')).gemini,
  reader: async () => {
    const [m, { gemini }] = await Promise.all([import('./reader.js'), import('./facts.js')]);
    return {
      name: 'gemini',
      parse: (doc, ctx) => m.parseGeminiLike(gemini, doc, ctx),
      serialize: (hooks) => m.serializeGeminiLike(gemini, hooks),
    };
  },
  wire: async () => (await import('./wire.js')).geminiWire,
  install: async () => (await import('./install.js')).geminiInstall,
};
