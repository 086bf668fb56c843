/** `agent-hooks demo`: a scripted session of the reference runtime with example hooks (src/host/demo.ts). */
import type { Command } from 'commander';

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'run a scripted agent session in a temporary workspace with example hooks, printing every event, hook and decision (no network)',
    )
    .option('--keep', 'keep the temporary workspace and print its path')
    .action(async (flags: { keep?: boolean }) => {
      const { runDemo } = await import('../../host/demo.js');
      process.exitCode = await runDemo({ keep: flags.keep === true });
    });
}
