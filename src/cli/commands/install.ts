/**
 * `agent-hooks install --agent D`, `uninstall --agent D`, `install --status`: write (or take out)
 * the dispatch lines in agent D's own config, for every event D delivers (src/install/). Exit 0:
 * done (or nothing to do); 1: refused (unknown agent or scope, a file it cannot parse, a settings
 * file that is not there), nothing written.
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';

interface InstallFlags {
  agent?: string;
  scope?: string;
  settings?: string[];
  cwd?: string;
  dryRun?: boolean;
  status?: boolean;
}

const say = (s: string) => process.stdout.write(`${s}\n`);
const fail = (s: string) => {
  process.stderr.write(`agent-hooks: ${s}\n`);
  return 1;
};

/** Lines only in before (-) and only in after (+), around their common start and end. */
function diff(file: string, before = '', after = ''): string {
  const a = before ? before.split('\n') : [];
  const b = after ? after.split('\n') : [];
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let e = 0;
  while (e < a.length - s && e < b.length - s && a[a.length - 1 - e] === b[b.length - 1 - e]) e++;
  const out = [`--- ${before ? file : '/dev/null'}`, `+++ ${after ? file : '/dev/null'}`, `@@ line ${s + 1} @@`];
  for (const l of a.slice(s, a.length - e)) out.push(`-${l}`);
  for (const l of b.slice(s, b.length - e)) out.push(`+${l}`);
  return out.join('\n');
}

function context(flags: InstallFlags) {
  return { projectDir: resolve(flags.cwd ?? process.cwd()), homeDir: process.env.HOME || homedir(), env: process.env };
}

async function statusCommand(flags: InstallFlags): Promise<number> {
  const { INSTALL_AGENTS, installSpecOf } = await import('../../install/targets/index.js');
  const { installedState } = await import('../../install/install.js');
  const ctx = context(flags);
  for (const agent of flags.agent ? [flags.agent] : INSTALL_AGENTS) {
    const spec = await installSpecOf(agent);
    if (!spec) return fail(`unknown agent ${JSON.stringify(agent)} (one of ${INSTALL_AGENTS.join(', ')})`);
    for (const scope of ['user', 'project'] as const) {
      const s = installedState(spec, { scope, ctx });
      if ('error' in s) continue;
      const what = s.state === 'all' ? 'installed' : s.state === 'some' ? 'partly installed (run install again)' : 'not installed';
      say(`${agent}\t${scope}\t${what}\t${s.target}`);
    }
  }
  return 0;
}

async function changeCommand(mode: 'install' | 'uninstall', flags: InstallFlags): Promise<number> {
  const { INSTALL_AGENTS, installSpecOf } = await import('../../install/targets/index.js');
  if (!flags.agent) return fail(`${mode}: --agent is required (one of ${INSTALL_AGENTS.join(', ')})`);
  const spec = await installSpecOf(flags.agent);
  if (!spec) return fail(`unknown agent ${JSON.stringify(flags.agent)} (one of ${INSTALL_AGENTS.join(', ')})`);
  const scope = flags.scope ?? 'project';
  if (scope !== 'user' && scope !== 'project') return fail(`--scope must be user or project, not ${JSON.stringify(scope)}`);
  const ctx = context(flags);
  const settings = (flags.settings ?? []).map((f) => resolve(ctx.projectDir, f));
  // dispatch fails on a settings file that is not there, and the agent would go on unguarded.
  const absent = settings.find((f) => !existsSync(f));
  if (absent) return fail(`install: settings file ${absent} does not exist; nothing written`);
  const { planInstall, planUninstall } = await import('../../install/install.js');
  const { applyChanges, readRecord, recordFile, restoring } = await import('../../install/record.js');
  const record = recordFile(process.env, ctx.homeDir);
  const packageDir = realpathSync(fileURLToPath(new URL('../../../', import.meta.url)));
  const req = {
    agent: flags.agent,
    scope,
    settings,
    ctx,
    node: process.execPath,
    cli: resolve(packageDir, 'dist/cli/bin.cjs'),
    packageDir,
  } as const;
  const plan = mode === 'install' ? planInstall(spec, req) : planUninstall(spec, req);
  if ('error' in plan) return fail(`${mode}: ${plan.error}`);
  const changes = mode === 'uninstall' ? restoring(plan.changes, readRecord(record)) : plan.changes;
  if (!changes.length) {
    say(`${spec.title} (${scope}): ${mode === 'install' ? 'already installed' : 'nothing installed'} in ${plan.target}; nothing changed`);
    return 0;
  }
  for (const c of changes) {
    if (flags.dryRun) say(diff(c.file, c.before, c.after));
    else say(`${c.after === undefined ? 'removed' : c.before === undefined ? 'created' : 'changed'} ${c.file}`);
  }
  if (flags.dryRun) return 0;
  applyChanges(changes, mode, record);
  const events = spec.format === 'plugin' ? 'its plugin' : `${spec.events.length} event(s): ${spec.events.map((m) => m.native).join(', ')}`;
  say(
    mode === 'install'
      ? `${spec.title} (${scope}) now runs agent-hooks dispatch for ${events}`
      : `${spec.title} (${scope}): agent-hooks taken out`,
  );
  if (mode === 'install' && scope === 'project' && spec.projectNote) say(`note: ${spec.projectNote}`);
  return 0;
}

export function registerInstallCommand(program: Command): void {
  const common = (cmd: Command) =>
    cmd
      .option(
        '--agent <name>',
        'the agent (claude, codex, gemini, qwen, kimi, cursor, copilot, droid, cline, auggie, letta, opencode, kilo, pi)',
      )
      .option('--scope <scope>', "user (the agent's config in your home) or project (this project's)", 'project')
      .option('--cwd <dir>', 'the project (default: current directory)')
      .option('--dry-run', 'print what would change, write nothing');
  common(program.command('install').description("run agent-hooks dispatch from an agent's own hook config, for every event it delivers"))
    .option(
      '--settings <file>',
      'engine settings file dispatch reads (repeatable; default: what dispatch discovers)',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--status', 'list, per agent and scope, where agent-hooks is installed')
    .action(async (flags: InstallFlags) => {
      process.exitCode = flags.status ? await statusCommand(flags) : await changeCommand('install', flags);
    });
  common(
    program
      .command('uninstall')
      .description("take agent-hooks out of an agent's hook config (an unchanged file is restored byte for byte)"),
  ).action(async (flags: InstallFlags) => {
    process.exitCode = await changeCommand('uninstall', flags);
  });
}
