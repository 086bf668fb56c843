#!/usr/bin/env node
// block-destructive (agent-hooks preset): a PreToolUse guard for Bash that denies a recursive
// `rm` of what the project cannot rebuild: `/` or a top-level directory, your home or anything
// in it, the project itself (`.`, `*`) or anything outside it (`..`), and a bare variable (`$DIR/`
// is `/` when DIR is unset). Any recursive `rm` under sudo/doas, and `--no-preserve-root`, are
// denied too. Recursive removals inside the project (`rm -rf build`, `rm -rf ./dist node_modules`)
// and below the temporary directory (`/tmp/x`) pass. Flags in any spelling: -rf, -fr, -r -f, -Rf,
// --recursive --force. Commands are read past `;`, `&&`, `|`, `$(…)`, backticks, `VAR=x`,
// wrappers (sudo, env, timeout, nice, nohup, command, exec, xargs) and `sh|bash -c '…'`.
// Node only, no dependencies. Docs: docs/presets.md of agent-hooks.
import { homedir } from 'node:os';
import { posix } from 'node:path';

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const reason = judge(String(input.tool_input?.command ?? ''));
if (reason) {
  const out = { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `block-destructive: ${reason}` };
  console.log(JSON.stringify({ hookSpecificOutput: out }));
}

/** Why the command is refused, or undefined. */
function judge(command) {
  for (const words of simpleCommands(command)) {
    const { argv, sudo } = unwrap(words);
    const program = posix.basename(argv[0] ?? '');
    if ((program === 'sh' || program === 'bash' || program === 'zsh' || program === 'dash') && argv.includes('-c')) {
      const inner = judge(argv[argv.indexOf('-c') + 1] ?? '');
      if (inner) return inner;
    } else if (program === 'eval') {
      const inner = judge(argv.slice(1).join(' '));
      if (inner) return inner;
    } else if (program === 'rm') {
      const inner = judgeRm(argv.slice(1), sudo);
      if (inner) return inner;
    }
  }
  return undefined;
}

function judgeRm(args, sudo) {
  let recursive = false;
  const targets = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    else if (options && a === '--no-preserve-root') return 'rm --no-preserve-root';
    else if (options && (a === '--recursive' || a === '-r' || a === '-R')) recursive = true;
    else if (options && /^-[a-zA-Z]+$/.test(a)) recursive ||= /[rR]/.test(a);
    else if (!(options && a.startsWith('--'))) targets.push(a);
  }
  if (!recursive) return undefined;
  if (sudo) return 'a recursive rm as root (sudo)';
  for (const t of targets) {
    const why = dangerous(t);
    if (why) return `recursive rm of ${t} (${why})`;
  }
  return undefined;
}

/** Why removing this target (as written, unexpanded) destroys what the project cannot rebuild. */
function dangerous(target) {
  const home = process.env.HOME || homedir();
  const project = posix.resolve(process.env.CLAUDE_PROJECT_DIR || process.cwd());
  let t = target.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
  if (/^\$\{?\w+\}?\/?\*?$/.test(t)) return 'a bare variable: `/` when it is unset';
  if (t.startsWith('~')) return 'a home directory';
  t = t.replace(/\/(\.?\*)?$/, '') || '/'; // `dir/` and `dir/*` remove what `dir` holds
  if (t === '*' || t === '.*') t = '.';
  const abs = posix.resolve(project, t);
  const under = (dir) => abs.startsWith(`${dir.replace(/\/$/, '')}/`);
  if (abs === home) return 'your home directory';
  if (abs.split('/').filter(Boolean).length <= 1) return 'the root or a top-level directory';
  if (abs === project) return 'the whole project';
  if (under(project)) return undefined;
  if (under('/tmp') || (process.env.TMPDIR && under(posix.resolve(process.env.TMPDIR)))) return undefined;
  return abs === home || under(home) ? 'your home directory' : 'outside the project';
}

/** Strips `VAR=x` and wrapper programs; says whether sudo/doas was one of them. */
function unwrap(words) {
  const argv = [...words];
  let sudo = false;
  for (;;) {
    while (argv.length > 0 && /^[A-Za-z_]\w*=/.test(argv[0])) argv.shift();
    const p = posix.basename(argv[0] ?? '');
    if (p === 'sudo' || p === 'doas') sudo = true;
    const withValue = { sudo: /^-[ugCDhpr]$/, doas: /^-[uC]$/, env: /^-[uC]$/, nice: /^-n$/, timeout: /^-[sk]$/, xargs: /^-[nILPsdE]$/ };
    if (!['sudo', 'doas', 'env', 'nice', 'nohup', 'timeout', 'command', 'exec', 'builtin', 'time', 'xargs'].includes(p))
      return { argv, sudo };
    argv.shift();
    while (argv.length > 0 && argv[0].startsWith('-')) if (withValue[p]?.test(argv.shift())) argv.shift();
    if (p === 'timeout' && argv.length > 0) argv.shift(); // the duration
  }
}

/** The simple commands of a shell text, each as its words (quotes removed, nothing expanded). */
function simpleCommands(text) {
  const commands = [];
  let words = [];
  let word = null;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    // Reserved words that open or close a compound command: the command proper follows them.
    while (words.length > 0 && /^([{}!]|if|then|elif|else|fi|do|done|while|until)$/.test(words[0])) words.shift();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      const j = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, j < 0 ? text.length : j);
      i = j < 0 ? text.length : j;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      for (; j < text.length && text[j] !== '"'; j++) s += text[j] === '\\' && j + 1 < text.length ? text[++j] : text[j];
      word = (word ?? '') + s;
      i = j;
    } else if (c === '\\' && i + 1 < text.length) word = (word ?? '') + text[++i];
    else if (c === '$' && text[i + 1] === '(') {
      endCommand();
      i++;
    } else if (/[;&|()`\n]/.test(c)) endCommand();
    else if (c === '<' || c === '>') {
      endWord();
      words.push(c);
    } else if (/\s/.test(c)) endWord();
    else word = (word ?? '') + c;
  }
  endCommand();
  return commands;
}
