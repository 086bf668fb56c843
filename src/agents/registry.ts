/**
 * The agents: one adapter per folder (src/agents/<name>/index.ts), and the one place that lists
 * them. A new agent is a folder and a line here (its name goes in DIALECT_NAMES, types.ts: a
 * missing or extra line is a compile error). Each adapter loads its facts, reader and wire codec
 * on first use, so dispatch's no-hooks check detects with every agent's `detect` and loads only
 * the facts of the files it finds, and one wire codec; a bundle keeps each part a lazy chunk.
 * all.ts is the eager table (every agent's facts and wire codec), for the library.
 */
import type { NormalizedHook } from '../types.js';
import { auggie } from './auggie/index.js';
import { claude } from './claude/index.js';
import { cline } from './cline/index.js';
import { codex } from './codex/index.js';
import { copilot } from './copilot/index.js';
import { cursor } from './cursor/index.js';
import { droid } from './droid/index.js';
import { gemini } from './gemini/index.js';
import { kilo } from './kilo/index.js';
import { kimi } from './kimi/index.js';
import { opencode } from './opencode/index.js';
import { pi } from './pi/index.js';
import { letta } from './letta/index.js';
import { qwen } from './qwen/index.js';
import type {
  Agent,
  Dialect,
  DialectName,
  DialectReader,
  ParseContext,
  ParseResult,
  SerializeOptions,
  SerializeResult,
  WireAdapter,
} from './types.js';

export const AGENTS: Readonly<Record<DialectName, Agent>> = {
  claude,
  codex,
  gemini,
  qwen,
  kimi,
  cursor,
  copilot,
  droid,
  opencode,
  kilo,
  pi,
  letta,
  cline,
  auggie,
};

/** One agent's facts. */
export function loadDialect(name: DialectName): Promise<Dialect> {
  return AGENTS[name].facts();
}

/** One agent's wire codec: `dispatch --agent D` needs D's only. */
export function loadWire(name: DialectName): Promise<WireAdapter> {
  return AGENTS[name].wire();
}

/** One agent's config reader: a load that reads one agent's file compiles only that reader's schemas. */
function readerOf(name: DialectName): Promise<DialectReader> {
  return AGENTS[name].reader();
}

/** Parsed document → hooks in `name`'s dialect (validated, path-qualified diagnostics; never throws). */
export async function parseDialect(name: DialectName, doc: unknown, ctx: ParseContext): Promise<ParseResult> {
  return (await readerOf(name)).parse(doc, ctx);
}

/** Hooks → `name`'s config text, reporting every construct it cannot express. */
export async function serializeDialect(
  name: DialectName,
  hooks: readonly NormalizedHook[],
  opts?: SerializeOptions,
): Promise<SerializeResult> {
  return (await readerOf(name)).serialize(hooks, opts);
}

export { detectDialectName } from './detectors.js';
