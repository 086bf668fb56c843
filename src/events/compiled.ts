/**
 * The compiled validators `npm run build` writes to dist/validators/ (scripts/gen-validators.mjs):
 * accept-first checks. A compiled validator never accepts what zod rejects
 * (test/events/compiled-validators.test.ts), so a caller that gets `true` may skip zod; on
 * `false`, or where none is available (run from the sources, a partial build), zod decides and
 * words the issues as before.
 */
export type CompiledCheck = (value: unknown) => boolean;

const loaded = new Map<string, CompiledCheck | null>();
const pending = new Map<string, Promise<CompiledCheck | null>>();

// Relative to this module: dist/events/ (plain modules) or a bundle's directory, dist/cli/bundle*/.
const BASES = ['../validators/', '../../validators/'];

/** The validator if loaded; null if none is available; undefined if not looked for yet. */
export function compiledCheck(name: string): CompiledCheck | null | undefined {
  return loaded.get(name);
}

/** Loads a validator (`input_<Event>`, `output_<Event>`, `settings`, `pluginHooks`) once; null if none is available. */
export function loadCompiledCheck(name: string): Promise<CompiledCheck | null> {
  let p = pending.get(name);
  if (!p) {
    p = (async () => {
      for (const base of BASES) {
        try {
          const mod = (await import(new URL(`${base}${name}.js`, import.meta.url).href)) as { default?: unknown };
          if (typeof mod.default === 'function') return mod.default as CompiledCheck;
        } catch {
          // Not at this place: try the next, then zod alone.
        }
      }
      return null;
    })().then((check) => {
      loaded.set(name, check);
      return check;
    });
    pending.set(name, p);
  }
  return p;
}
