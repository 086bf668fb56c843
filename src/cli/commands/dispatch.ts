/**
 * `agent-hooks dispatch --agent D`: the hook command to put in agent D's own config
 * (docs/dialects.md has the one line per agent). Lean on purpose (see src/dispatch/dispatch.ts).
 */
import type { Command } from 'commander';
import { DIALECT_NAMES } from '../../agents/types.js';
import type { DispatchFlags } from '../../dispatch/dispatch.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerDispatchCommand(program: Command): void {
  program
    .command('dispatch')
    .description("answer an agent's hook call: read its payload on stdin, run the engine, reply in its convention")
    .requiredOption('--agent <name>', `the calling agent: ${DIALECT_NAMES.join(', ')}`)
    .option('--event <name>', "the agent's event name when its payload does not carry one (Copilot CLI)")
    .option('--settings <file>', 'engine config file in any dialect (repeatable; default: discover like `run`)', collect)
    .option('--dialect <name>', 'force the dialect of --settings files (default: detected per file)')
    .option('--plugin <dir>', 'plugin directory with hooks/hooks.json (repeatable)', collect)
    .option('--cwd <dir>', "project directory (default: the payload's cwd, else the current directory)")
    .option('--discover', 'also read user, project, local and managed settings (default when no --settings is given)')
    .option('--discover-dialects <list>', "also discover these agents' hook files (comma-separated dialects, or all; default as `run`)")
    .option('--managed-settings <file>', 'managed policy settings file')
    .option('--audit <file>', 'append one JSON line per hook execution to this file')
    .option('--remote <url>', "ask the team's policy server instead of local hooks (token in AGENT_HOOKS_REMOTE_TOKEN)")
    .option('--remote-failure <policy>', 'when the policy server is unreachable: deny (default), ask or ignore')
    .action(async (flags: DispatchFlags) => {
      const { dispatchMain } = await import('../../dispatch/dispatch.js');
      process.exitCode = await dispatchMain(flags);
    });
}
