/**
 * `agent-hooks convert --from D --to D FILE [--out FILE]`: rewrite a hook config into another
 * agent's dialect. Every construct the target cannot express is reported (stderr, or --json),
 * never dropped silently. Exit 0: converted without loss; 3: converted, with losses; 1: the
 * input could not be read (its diagnostics are printed).
 *
 * Also gives `run` and `list` a `--dialect` option (their --settings files are auto-detected;
 * this forces one dialect).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DIALECT_NAMES } from '../../agents/types.js';
import { formatDiagnostic } from '../../util/format-diagnostic.js';
import { oneLine } from '../../util/terminal-text.js';

interface ConvertFlags {
  from?: string;
  to: string;
  out?: string;
  format?: 'json' | 'toml';
  json?: boolean;
}

async function convertCommand(file: string, flags: ConvertFlags): Promise<number> {
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    process.stderr.write(`agent-hooks convert: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return 1;
  }
  const format = flags.format ?? (flags.out && /\.toml$/i.test(flags.out) ? 'toml' : undefined);
  const { convertText } = await import('../../agents/shared/convert.js');
  const r = await convertText(path, text, { ...(flags.from ? { from: flags.from } : {}), to: flags.to, ...(format ? { format } : {}) });
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    if (r.ok && flags.out) await writeFile(resolve(flags.out), r.text);
    return !r.ok ? 1 : r.losses.length ? 3 : 0;
  }
  for (const d of r.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (!r.ok) return 1;
  if (flags.out) await writeFile(resolve(flags.out), r.text);
  else process.stdout.write(r.text);
  for (const l of r.losses)
    process.stderr.write(`${oneLine(`loss: ${path}: ${l.path}: ${l.scope === 'hook' ? 'hook left out: ' : ''}${l.message}`)}\n`);
  if (r.losses.length)
    process.stderr.write(`${r.losses.length} construct(s) of ${r.from} could not be expressed in ${r.to} (listed above)\n`);
  return r.losses.length ? 3 : 0;
}

export function registerConvertCommand(program: Command): void {
  program
    .command('convert')
    .description("rewrite a hook config into another agent's dialect, reporting what cannot be expressed")
    .argument('<file>', 'config file to convert')
    .option('--from <dialect>', `source dialect (default: detected): ${DIALECT_NAMES.join(', ')}`)
    .requiredOption('--to <dialect>', `target dialect: ${DIALECT_NAMES.join(', ')}`)
    .option('--out <file>', 'write the result here instead of stdout')
    .option('--format <format>', 'codex only: json (hooks.json) or toml ([hooks] for config.toml)')
    .option('--json', 'print {text, losses, diagnostics} as JSON')
    .action(async (file: string, flags: ConvertFlags) => {
      process.exitCode = await convertCommand(file, flags);
    });

  // run and list read --settings files of any dialect; --dialect forces one.
  for (const name of ['run', 'list']) {
    program.commands
      .find((c) => c.name() === name)
      ?.option('--dialect <name>', `force the dialect of --settings files (${DIALECT_NAMES.join(', ')}; default: detected)`);
  }
}
