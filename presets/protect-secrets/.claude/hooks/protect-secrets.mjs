#!/usr/bin/env node
// protect-secrets (agent-hooks preset): a PreToolUse guard that keeps secret files out of the
// agent's reach. It denies Read, Edit, Write, MultiEdit and NotebookEdit of a secret file — and,
// through the engine's per-file patch views, each file of an ApplyPatch — and Bash commands that
// read, copy or write one (`cat .env`, `source .env`, `cp .env x`, `< .env`, `echo K=v >> .env`).
// Secret files: `.env`, `.env.*` and `*.env` except templates (`.env.example`, `.sample`,
// `.template`, `.dist`), `.envrc`, private keys (`*.pem`, `*.key`, `*.p12`, `*.pfx`, `id_rsa`,
// `id_ecdsa`, `id_ed25519`, `id_dsa`), `.netrc`, `.pgpass`, `.git-credentials`, `.aws/credentials`.
// Not seen: a name built at run time (`cat $(ls -a | grep env)`), programs not listed in READERS,
// secrets inside ordinary files. Node only, no dependencies. Docs: docs/presets.md of agent-hooks.
import { posix } from 'node:path';

/** Programs that read, copy or send a file given as an argument. */
const READERS = new Set(
  'cat tac less more head tail nl bat grep egrep fgrep rg ag awk gawk sed cut sort uniq diff cmp base64 xxd od hexdump strings source . cp mv scp rsync tee curl wget dd vi vim nvim nano emacs code python python3 node ruby perl jq yq'.split(
    ' ',
  ),
);

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const tool = String(input.tool_name ?? '');
const ti = input.tool_input ?? {};
const found =
  tool === 'Bash' ? inCommand(String(ti.command ?? '')) : [ti.file_path, ti.notebook_path].find((p) => typeof p === 'string' && secret(p));
if (found) {
  const reason = `protect-secrets: ${tool} of ${found} refused: it holds secrets (use a template such as .env.example, or ask the user)`;
  console.log(
    JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }),
  );
}

/** Whether a path names a secret file. */
function secret(path) {
  const name = posix.basename(path.replace(/\\/g, '/')).toLowerCase();
  if (/^\.env$|^\.env\.|\.env$/.test(name)) return !/\.(example|sample|template|dist)$/.test(name);
  if (name === '.envrc' || name === '.netrc' || name === '.pgpass' || name === '.git-credentials') return true;
  if (/^id_(rsa|ecdsa|ed25519|dsa)$/.test(name) || /\.(pem|key|p12|pfx)$/.test(name)) return true;
  return name === 'credentials' && /(^|\/)\.aws\/credentials$/i.test(path);
}

/** The first secret file a Bash command reads or writes, if any. */
function inCommand(command) {
  for (const words of simpleCommands(command)) {
    let i = 0;
    while (i < words.length && /^[A-Za-z_]\w*=/.test(words[i])) i++;
    if (['sudo', 'env', 'command', 'exec', 'xargs', 'nohup', 'time'].includes(words[i])) i++;
    const program = posix.basename(words[i] ?? '');
    if ((program === 'sh' || program === 'bash' || program === 'zsh') && words.includes('-c')) {
      const inner = inCommand(words[words.indexOf('-c') + 1] ?? '');
      if (inner) return inner;
    }
    for (let j = i + 1; j < words.length; j++) {
      const w = words[j].replace(/^@/, ''); // curl -d @.env
      const redirected = words[j - 1] === '<' || words[j - 1] === '>';
      if ((redirected || READERS.has(program)) && secret(w)) return w;
    }
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
