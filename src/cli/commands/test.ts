/**
 * `agent-hooks test [FILE|DIR]...`: run hook fixture files like a test runner
 * (docs/authoring.md). Exit 0 when every case passed, 1 on any failure, invalid fixture file,
 * or when nothing was found to run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { forTerminal } from '../../util/terminal-text.js';

interface TestFlags {
  filter?: string;
  bail?: boolean;
  update?: boolean;
  jobs?: string;
  json?: boolean;
  reporter?: 'text' | 'json' | 'junit';
  output?: string;
  watch?: boolean;
}

async function testCommand(paths: string[], flags: TestFlags): Promise<number> {
  const reporter = flags.json ? 'json' : (flags.reporter ?? 'text');
  const jobs = flags.jobs === undefined ? undefined : Number(flags.jobs);
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1)) {
    process.stderr.write(`agent-hooks test: --jobs must be a positive integer, got ${JSON.stringify(flags.jobs)}\n`);
    return 1;
  }
  // Text goes to the console unless a machine report takes stdout.
  const text = reporter === 'text' || flags.output !== undefined;
  const print = (s: string) => {
    if (text) process.stdout.write(`${forTerminal(s)}\n`);
  };
  const [{ formatCase, formatFileError, formatSummary, toJsonReport, toJunitXml }, { reportFailed, runFixtures }] = await Promise.all([
    import('../../toolkit/report.js'),
    import('../../toolkit/runner.js'),
  ]);
  let report: Awaited<ReturnType<typeof runFixtures>>;
  try {
    report = await runFixtures(paths, {
      filter: flags.filter,
      bail: flags.bail,
      update: flags.update,
      jobs,
      // Streamed as cases finish; with --update, results are final only once the files are rewritten.
      onCase: flags.update ? undefined : (r) => print(formatCase(r)),
      onFileError: flags.update ? undefined : (f) => print(formatFileError(f)),
    });
  } catch (err) {
    process.stderr.write(`agent-hooks test: ${(err as Error).message}\n`);
    return 1;
  }
  if (flags.update) {
    for (const f of report.files) {
      if (f.errors.length > 0) print(formatFileError(f));
      for (const c of f.cases) print(formatCase(c));
    }
  }
  print(formatSummary(report));

  if (reporter !== 'text') {
    const body = reporter === 'junit' ? toJunitXml(report) : `${JSON.stringify(toJsonReport(report), null, 2)}\n`;
    if (flags.output) {
      const out = resolve(flags.output);
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, body);
    } else process.stdout.write(body);
  }
  return reportFailed(report) ? 1 : 0;
}

/**
 * --watch: run, then run again whenever a file under the given paths (default: the current
 * directory) changes, debounced; node_modules and .git are ignored. Runs until interrupted.
 */
async function watchCommand(paths: string[], flags: TestFlags): Promise<number> {
  const { watch } = await import('node:fs');
  const roots = (paths.length > 0 ? paths : ['.']).map((p) => resolve(p));
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const once = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    process.stdout.write(`\n[watch] ${new Date().toLocaleTimeString()} running ${roots.join(' ')}\n`);
    await testCommand(paths, flags);
    process.stdout.write('[watch] waiting for changes (Ctrl-C to stop)\n');
    running = false;
    if (again) {
      again = false;
      void once();
    }
  };
  for (const root of roots) {
    watch(root, { recursive: true }, (_event, file) => {
      if (file && /(^|[\\/])(node_modules|\.git)([\\/]|$)/.test(String(file))) return;
      clearTimeout(timer);
      timer = setTimeout(() => void once(), 200);
    });
  }
  await once();
  return new Promise<number>(() => {}); // until SIGINT
}

export function registerTestCommand(program: Command): void {
  program
    .command('test')
    .description('run hook fixture files (*.test.yaml / *.test.json): a line per case, a diff per mismatch, exit 1 on any failure')
    .argument('[paths...]', 'fixture files, or directories searched for *.test.{yaml,yml,json} (default: current directory)')
    .option('--filter <pattern>', 'only cases whose name contains this text (or matches /regex/flags)')
    .option('--bail', 'start no new case after the first failure')
    .option('-u, --update', 'record the current results as the expectations (passing expectations are kept)')
    .option('--jobs <n>', 'cases run at once (default: CPU count, at most 8)')
    .option('--json', 'print the report as JSON (same as --reporter json)')
    .addOption(new Option('--reporter <name>', 'report format').choices(['text', 'json', 'junit']))
    .option('--output <file>', 'write the json/junit report to this file; the console keeps the text report')
    .option('-w, --watch', 'run again whenever a file under the paths changes (until Ctrl-C)')
    .action(async (paths: string[], flags: TestFlags) => {
      process.exitCode = flags.watch ? await watchCommand(paths, flags) : await testCommand(paths, flags);
    });
}
