/**
 * Every agent's facts and wire codec, loaded together: the library's synchronous tables
 * (`agent-hooks/dialects`: DIALECTS, WIRE), the readers (a hook's source dialect), `doctor` and
 * discovery over every agent. The lazy paths go through registry.ts, which loads one agent's part
 * at a time (and never this module); test/dialects/detect.test.ts keeps the two listing the same agents.
 */
import { auggie } from './auggie/facts.js';
import { auggieWire } from './auggie/wire.js';
import { claude } from './claude/facts.js';
import { claudeWire } from './claude/wire.js';
import { cline } from './cline/facts.js';
import { clineWire } from './cline/wire.js';
import { codex } from './codex/facts.js';
import { codexWire } from './codex/wire.js';
import { copilot } from './copilot/facts.js';
import { copilotWire } from './copilot/wire.js';
import { cursor } from './cursor/facts.js';
import { cursorWire } from './cursor/wire.js';
import { droid } from './droid/facts.js';
import { droidWire } from './droid/wire.js';
import { gemini } from './gemini/facts.js';
import { geminiWire } from './gemini/wire.js';
import { kilo } from './kilo/facts.js';
import { kiloWire } from './kilo/wire.js';
import { kimi } from './kimi/facts.js';
import { kimiWire } from './kimi/wire.js';
import { opencode } from './opencode/facts.js';
import { opencodeWire } from './opencode/wire.js';
import { pi } from './pi/facts.js';
import { piWire } from './pi/wire.js';
import { letta } from './letta/facts.js';
import { lettaWire } from './letta/wire.js';
import { qwen } from './qwen/facts.js';
import { qwenWire } from './qwen/wire.js';
import { surestDialect } from './shared/detect.js';
import { dialectFiles, type DiscoveredFile } from './shared/locations.js';
import { DIALECT_NAMES, isDialectName, type Dialect, type DialectName, type WireAdapter } from './types.js';

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
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

export const WIRE: Readonly<Record<DialectName, WireAdapter>> = {
  claude: claudeWire,
  codex: codexWire,
  gemini: geminiWire,
  qwen: qwenWire,
  kimi: kimiWire,
  cursor: cursorWire,
  copilot: copilotWire,
  droid: droidWire,
  opencode: opencodeWire,
  kilo: kiloWire,
  pi: piWire,
  letta: lettaWire,
  cline: clineWire,
  auggie: auggieWire,
};

export { DIALECT_NAMES, isDialectName };
export type * from './types.js';

export function getDialect(name: string): Dialect | undefined {
  return isDialectName(name) ? DIALECTS[name] : undefined;
}

/** The most likely dialect of a parsed document; Claude (the native shape) when nothing is sure. */
export function detectDialect(file: string, doc: unknown): { dialect: Dialect; confidence: number } {
  const { name, confidence } = surestDialect((name) => DIALECTS[name].detect, file, doc);
  return { dialect: DIALECTS[name], confidence };
}

/**
 * The files to read for `dialects`, in order: per dialect, user files then project files.
 * A directory location lists its `*.json` files (sorted). A path listed twice (running in the
 * home directory: the project file is the user file) is read once, as the user's. Claude's
 * locations are read by the native loader (they also carry the engine's own settings and
 * managed policy); dispatch's no-hooks check lists the files of the dialects it loaded instead.
 */
export function discoveryFilesOf(
  dialects: readonly DialectName[],
  ctx: { projectDir: string; homeDir: string; env?: Readonly<Record<string, string | undefined>> },
): DiscoveredFile[] {
  return dialectFiles(
    dialects.map((n) => DIALECTS[n]),
    ctx,
  );
}

export { parseDiscoverDialects, type DiscoverDialects, type DiscoveredFile } from './shared/locations.js';
export { readDocument } from './shared/document.js';
