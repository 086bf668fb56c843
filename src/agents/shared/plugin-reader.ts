/**
 * The config reader of a plugin agent (OpenCode, Kilo, Pi): these agents have no hooks file, so
 * there is nothing to read and nothing to convert to. Their hooks are the engine's own settings,
 * handed to our plugin (src/plugins/); both directions say so instead of failing quietly.
 */
import type { NormalizedHook } from '../../types.js';
import type { DialectReader } from '../types.js';

export function pluginAgentReader(name: 'opencode' | 'kilo' | 'pi', title: string): DialectReader {
  const why = `${title} has no hooks file: its hooks run through the agent-hooks plugin (agent-hooks install --agent ${name}), which reads Claude-format settings files`;
  return {
    name,
    parse: async (_doc, ctx) => ({ hooks: [], diagnostics: [{ level: 'error', file: ctx.file, path: '(root)', message: why }], ok: false }),
    serialize: async (hooks: readonly NormalizedHook[]) => ({
      text: '',
      losses: [
        { path: '(root)', scope: 'hook', message: `${why}; keep this config in Claude's format and pass it to the plugin` },
        ...hooks.map((h) => ({ path: h.source.path, hookId: h.id, scope: 'hook' as const, message: `not written: ${why}` })),
      ],
    }),
  };
}
