/**
 * `agent-hooks init --preset NAME`: ready-made hooks (docs/presets.md). A preset is a folder of
 * the package, `presets/NAME/.claude/hooks/`, laid out as it lands in a project: its scripts and
 * `NAME.test.yaml`, whose `defaults.hooks` is the entry merged into `.claude/settings.json` — so
 * the fixtures test exactly what the agent will run, here and in the project.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { closest } from '../util/did-you-mean.js';
import { InitError, mergeSettings } from './init.js';

/** The package's presets (src/toolkit and dist/toolkit are both two levels below the root). */
const PRESETS_DIR = fileURLToPath(new URL('../../presets/', import.meta.url));

export function presetNames(): string[] {
  return readdirSync(PRESETS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

export interface PresetResult {
  settings: string;
  /** Files written (settings.json only when an entry was added). */
  written: string[];
  /** Files already there with the preset's content. */
  unchanged: string[];
}

/**
 * Copies the preset's files into DIR/.claude/hooks and merges its entries into
 * DIR/.claude/settings.json. Idempotent: a second run writes nothing. A file that exists with
 * other content is refused (nothing written) unless `force`.
 */
export async function installPreset(opts: { name: string; dir?: string; force?: boolean }): Promise<PresetResult> {
  const names = presetNames();
  if (!names.includes(opts.name)) {
    const hint = closest(opts.name, names);
    throw new InitError(
      `unknown preset ${JSON.stringify(opts.name)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}; presets: ${names.join(', ')}`,
    );
  }
  const from = join(PRESETS_DIR, opts.name, '.claude', 'hooks');
  const dir = resolve(opts.dir ?? '.');
  const hooksDir = join(dir, '.claude', 'hooks');
  const settings = join(dir, '.claude', 'settings.json');
  const files = readdirSync(from).sort();
  const copies: Array<{ to: string; text: string; mode: number }> = [];
  const unchanged: string[] = [];
  for (const f of files) {
    const to = join(hooksDir, f);
    const text = await readFile(join(from, f), 'utf8');
    if (existsSync(to)) {
      if ((await readFile(to, 'utf8')) === text) {
        unchanged.push(to);
        continue;
      }
      if (!opts.force)
        throw new InitError(`${join('.claude', 'hooks', f)} exists with other content (use --force to overwrite); nothing was written`);
    }
    copies.push({ to, text, mode: f.endsWith('.yaml') ? 0o644 : 0o755 });
  }
  const fixture = parse(await readFile(join(from, `${opts.name}.test.yaml`), 'utf8')) as {
    defaults: { hooks: Record<string, Array<Record<string, unknown>>> };
  };
  const entries = Object.entries(fixture.defaults.hooks).flatMap(([event, groups]) => groups.map((g) => [event, g] as const));
  // Read settings first: a file we cannot merge into must stop us before anything is written.
  const merged = await mergeSettings(settings, entries);
  await mkdir(hooksDir, { recursive: true });
  for (const c of copies) await writeFile(c.to, c.text, { mode: c.mode });
  const written = copies.map((c) => c.to);
  if (merged !== undefined) {
    await writeFile(settings, merged);
    written.push(settings);
  }
  return { settings, written, unchanged };
}
