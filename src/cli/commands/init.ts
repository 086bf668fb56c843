/**
 * `agent-hooks init [--lang ts|python|bash] [--event E] NAME`: scaffold a hook, its settings
 * entry and a fixture file that passes `agent-hooks test` (docs/authoring.md).
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
}

async function initCommand(name: string, flags: InitFlags): Promise<number> {
  const fail = (msg: string) => {
    process.stderr.write(`agent-hooks init: ${msg}\n`);
    return 1;
  };
  const [{ closest }, { EVENT_NAMES, isEventName }, { initHook, InitError }] = await Promise.all([
    import('../../util/did-you-mean.js'),
    import('../../events/catalog.js'),
    import('../../toolkit/init.js'),
  ]);
  let event = flags.event;
  if (event !== undefined && !isEventName(event)) {
    const hit = EVENT_NAMES.find((e) => e.toLowerCase() === event!.toLowerCase());
    if (!hit) {
      const hint = closest(event, EVENT_NAMES);
      return fail(`unknown event ${JSON.stringify(event)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`);
    }
    event = hit;
  }
  try {
    const r = await initHook({ name, lang: flags.lang, event: event as never, dir: flags.dir, force: flags.force });
    const dir = flags.dir ?? '.';
    for (const f of r.written)
      process.stdout.write(`${r.updated.includes(f) ? 'updated' : 'created'} ${relative(process.cwd(), f) || f}\n`);
    if (!r.written.includes(r.settings)) process.stdout.write(`${relative(process.cwd(), r.settings)} already has this entry\n`);
    for (const n of r.notes) process.stdout.write(`note: ${oneLine(n)}\n`);
    process.stdout.write(`next: agent-hooks test ${relative(process.cwd(), `${dir}/.claude/hooks`) || '.'}\n`);
    return 0;
  } catch (err) {
    if (err instanceof InitError) return fail(err.message);
    throw err;
  }
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('scaffold a hook: the script, its .claude/settings.json entry and a passing fixture file')
    .argument('<name>', 'hook name (the script and fixture file names)')
    .addOption(new Option('--lang <lang>', 'language of the hook script').choices([...LANG_CHOICES]).default('ts'))
    .option('--event <event>', 'event the hook runs on', 'PreToolUse')
    .option('--dir <dir>', 'project directory (default: current directory)')
    .option('--force', 'overwrite an existing script and fixture file')
    .action(async (name: string, flags: InitFlags) => {
      process.exitCode = await initCommand(name, flags);
    });
}
