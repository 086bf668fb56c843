/**
 * `agent-hooks init [--lang bash|python|ts] [--event E] NAME` scaffolds a hook, its settings
 * entry and a fixture file that passes `agent-hooks test` (docs/authoring.md);
 * `agent-hooks init --preset NAME` adds a ready-made hook (docs/presets.md).
 */
import { relative } from 'node:path';
import { Option, type Command } from 'commander';
import type { Lang } from '../../toolkit/init.js';
import { oneLine } from '../../util/terminal-text.js';

/** toolkit/init.ts LANGS, repeated so `init --help` loads no toolkit (a test keeps them equal). */
export const LANG_CHOICES: readonly Lang[] = ['ts', 'python', 'bash'];

interface InitFlags {
  lang?: Lang;
  event?: string;
  dir?: string;
  force?: boolean;
  preset?: string;
}

const fail = (msg: string) => {
  process.stderr.write(`agent-hooks init: ${msg}\n`);
  return 1;
};
const TRUST_NOTE =
  'agent-hooks runs project hooks only once the workspace is trusted: review with `agent-hooks status`, then `agent-hooks trust`';
const shown = (f: string) => relative(process.cwd(), f) || f;

async function initCommand(name: string | undefined, flags: InitFlags): Promise<number> {
  const [{ closest }, { EVENT_NAMES, isEventName }, { initHook, InitError }, { installPreset, presetNames }] = await Promise.all([
    import('../../util/did-you-mean.js'),
    import('../../events/catalog.js'),
    import('../../toolkit/init.js'),
    import('../../toolkit/presets.js'),
  ]);
  if (flags.preset !== undefined && (name !== undefined || flags.lang !== undefined || flags.event !== undefined))
    return fail('--preset takes no NAME, --lang or --event: the preset brings its own');
  if (flags.preset === undefined && name === undefined)
    return fail(`give a hook NAME, or --preset with one of: ${presetNames().join(', ')}`);
  let event = flags.event ?? 'PreToolUse';
  if (!isEventName(event)) {
    const lower = event.toLowerCase();
    // A prefix names the event too (`PreTool` → PreToolUse) when only one event starts with it.
    const prefixed = EVENT_NAMES.filter((e) => e.toLowerCase().startsWith(lower));
    const hint = closest(event, EVENT_NAMES) ?? (prefixed.length === 1 ? prefixed[0] : undefined);
    if (hint?.toLowerCase() !== lower)
      return fail(`unknown event ${JSON.stringify(event)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`);
    event = hint;
  }
  const dir = flags.dir ?? '.';
  try {
    if (flags.preset !== undefined) {
      const r = await installPreset({ name: flags.preset, dir: flags.dir, force: flags.force });
      for (const f of r.written) process.stdout.write(`wrote ${shown(f)}\n`);
      if (r.written.length === 0) process.stdout.write(`preset ${flags.preset} is already installed; nothing to do\n`);
      else process.stdout.write(`note: ${TRUST_NOTE}\n`);
    } else {
      const r = await initHook({ name: name!, lang: flags.lang, event: event as never, dir: flags.dir, force: flags.force });
      if (flags.lang === undefined) process.stdout.write(`language: ${r.lang} (the first this machine runs; --lang to choose)\n`);
      for (const f of r.written) process.stdout.write(`${r.updated.includes(f) ? 'updated' : 'created'} ${shown(f)}\n`);
      if (!r.written.includes(r.settings)) process.stdout.write(`${shown(r.settings)} already has this entry\n`);
      for (const n of r.notes) process.stdout.write(`note: ${oneLine(n)}\n`);
    }
    process.stdout.write(`next: agent-hooks test ${shown(`${dir}/.claude/hooks`)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof InitError) return fail(err.message);
    throw err;
  }
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('scaffold a hook (the script, its .claude/settings.json entry, a passing fixture file), or add a ready-made one')
    .argument('[name]', 'hook name (the script and fixture file names)')
    .addOption(
      new Option(
        '--lang <lang>',
        'language of the hook script (default: bash, else python, else ts where agent-hooks/sdk resolves)',
      ).choices([...LANG_CHOICES]),
    )
    .option('--event <event>', 'event the hook runs on (default: PreToolUse)')
    .option(
      '--preset <preset>',
      'add a ready-made hook: block-destructive, protect-secrets, block-force-push, test-before-stop, code-review',
    )
    .option('--dir <dir>', 'project directory (default: current directory)')
    .option('--force', 'overwrite an existing script and fixture file')
    .action(async (name: string | undefined, flags: InitFlags) => {
      process.exitCode = await initCommand(name, flags);
    });
}
