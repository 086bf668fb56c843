/**
 * The config stage's view of a dialect: reading an agent's hook config into NormalizedHooks and
 * writing hooks back in that agent's shape (src/config/readers/index.ts maps dialect names to them).
 */
import type { DialectName } from '../../dialects/types.js';
import type { Diagnostic, NormalizedHook, SourceKind } from '../../types.js';

export interface ParseContext {
  file: string;
  kind: SourceKind;
}

export interface ParseResult {
  hooks: NormalizedHook[];
  diagnostics: Diagnostic[];
  /** False when the file was rejected (any error): it contributes no hooks. */
  ok: boolean;
}

/** A construct of the source that the target dialect cannot express; never dropped silently. */
export interface Loss {
  /** Where the construct was (provenance path of the hook, or a file-level path). */
  path: string;
  /** Hook id when the loss concerns one hook. */
  hookId?: string;
  /** 'hook' = the whole hook was left out; 'field' = the hook is kept without this part. */
  scope: 'hook' | 'field';
  message: string;
}

export interface SerializeOptions {
  /** Codex: `json` (hooks.json, default) or `toml` (`[hooks]` tables for config.toml). */
  format?: 'json' | 'toml';
}

export interface SerializeResult {
  text: string;
  losses: Loss[];
}

/** Reading and writing one dialect's config documents. */
export interface DialectReader {
  name: DialectName;
  /** Parsed document → hooks (validated, path-qualified diagnostics; never throws). */
  parse(doc: unknown, ctx: ParseContext): Promise<ParseResult>;
  /** Hooks → this dialect's config text, reporting every construct it cannot express. */
  serialize(hooks: readonly NormalizedHook[], opts?: SerializeOptions): Promise<SerializeResult>;
}
