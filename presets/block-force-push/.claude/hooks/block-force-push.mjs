#!/usr/bin/env node
// block-force-push (agent-hooks preset): a PreToolUse guard for Bash that denies `git push` forms
// that overwrite the remote's history: `--force`, `-f` (also inside `-uf`), a `+refspec`
// (`git push origin +main`) and `--mirror`. `--force-with-lease` (and `--force-if-includes`) pass:
// they refuse to overwrite commits the pusher has not seen, so they cannot silently destroy someone
// else's work — set ALLOW_FORCE_WITH_LEASE to false to deny them too. Read past `git -C dir`,
// `git -c k=v`, `;`, `&&`, `$(…)`, `VAR=x`, sudo/env and `sh -c '…'`. Not seen: git aliases
// (`git pf`), `git push --delete` and `:branch` (deletions, not rewrites), pushes from scripts.
// Node only, no dependencies. Docs: docs/presets.md of agent-hooks.
import { posix } from 'node:path';

const ALLOW_FORCE_WITH_LEASE = true;

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const reason = judge(String(input.tool_input?.command ?? ''));
if (reason) {
  const out = { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `block-force-push: ${reason}` };
  console.log(JSON.stringify({ hookSpecificOutput: out }));
}

function judge(command) {
  for (const words of simpleCommands(command)) {
    let i = 0;
    while (i < words.length && (/^[A-Za-z_]\w*=/.test(words[i]) || ['sudo', 'env', 'command', 'exec', 'nohup', 'time'].includes(words[i])))
      i++;
    const program = posix.basename(words[i] ?? '');
    if ((program === 'sh' || program === 'bash' || program === 'zsh') && words.includes('-c')) {
      const inner = judge(words[words.indexOf('-c') + 1] ?? '');
      if (inner) return inner;
    }
    if (program !== 'git') continue;
    i++;
    // git's own options before the subcommand; -C, -c and the bare --git-dir forms take a value.
    while (i < words.length && words[i].startsWith('-')) i += /^(-C|-c|--git-dir|--work-tree|--namespace)$/.test(words[i]) ? 2 : 1;
    if (words[i] !== 'push') continue;
    const why = judgePush(words.slice(i + 1));
    if (why) return why;
  }
  return undefined;
}

function judgePush(args) {
  for (const a of args) {
    if (a === '--force' || (/^-[a-zA-Z]+$/.test(a) && a.includes('f'))) return `\`git push ${a}\` overwrites the remote's history`;
    if (a === '--mirror') return '`git push --mirror` overwrites every remote ref';
    if (!ALLOW_FORCE_WITH_LEASE && /^--force-(with-lease|if-includes)/.test(a)) return `\`git push ${a}\` overwrites the remote's history`;
    if (/^\+./.test(a)) return `\`git push ${a}\`: a + refspec forces the update`;
  }
  return undefined;
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
