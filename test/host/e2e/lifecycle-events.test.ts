/**
 * End-to-end tests of the events the runtime fires around the conversation rather than inside a
 * tool call: Setup, CwdChanged, FileChanged, DirectoryAdded, UserPromptExpansion, the task list
 * (TaskCreated, TaskStarted, TaskCompleted), worktrees (WorktreeCreate, WorktreeRemove) and
 * ConfigChange. Real hook processes configured in the workspace's .claude/settings.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../../src/host/index.js';
import { hook, useHostSandbox, json, until, allowAll } from '../helpers.js';

const sb = useHostSandbox();

const ctxOf = (o: { hookSpecificOutput: Record<string, unknown> }) => json(o);

describe('Setup', () => {
  it('fires before SessionStart with the trigger; context joins the conversation first; env exports apply', async () => {
    sb.settings({
      Setup: [
        {
          matcher: 'init',
          hooks: [
            hook(sb.log, ctxOf({ hookSpecificOutput: { hookEventName: 'Setup', additionalContext: 'deps installed' } })),
            { type: 'command', command: `echo 'export FROM_START=setup' >> "$CLAUDE_ENV_FILE"` },
          ],
        },
        { matcher: 'maintenance', hooks: [hook(sb.log, 'text:never')] },
      ],
      SessionStart: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'Bash', input: { command: 'echo "env=$FROM_START"' } }] },
      { text: 'done' },
    ]);
    const s = await sb.session({ model, prompter: allowAll, setup: 'init' });
    expect(sb.events()).toEqual(['Setup', 'SessionStart']);
    expect(sb.entries()[0]).toMatchObject({ trigger: 'init', session_id: s.id });
    // SessionStart hooks already see Setup's exports.
    expect(sb.entries()[1]!.__env).toEqual({ FROM_START: 'setup' });
    expect(s.env).toEqual({ FROM_START: 'setup' });
    await s.submit('go');
    expect(model.requests[0]!.messages[0]!.content).toContain('<hook-context source="Setup">deps installed</hook-context>');
    expect(s.messages.find((m) => m.role === 'tool')!.content).toBe('env=setup\n');
  });

  it('does not fire without setup; maintenance matches its own matcher; an invalid trigger is an error', async () => {
    sb.settings({ Setup: [{ matcher: 'maintenance', hooks: [hook(sb.log)] }], SessionStart: [{ hooks: [hook(sb.log)] }] });
    await sb.session({ model: scriptedModel([]) });
    expect(sb.events()).toEqual(['SessionStart']);
    await sb.session({ model: scriptedModel([]), setup: 'maintenance' });
    expect(sb.events()).toEqual(['SessionStart', 'Setup', 'SessionStart']);
    await expect(sb.start({ model: scriptedModel([]), setup: 'weekly' as 'init' })).rejects.toThrow(/setup must be/);
  });
});

describe('CwdChanged', () => {
  it('a Bash cd moves the session cwd: CwdChanged fires with old/new cwd, its env exports reach later commands, tools run there', async () => {
    sb.dir.write('ws/sub/marker.txt', 'x\n');
    sb.settings({
      CwdChanged: [{ hooks: [hook(sb.log), { type: 'command', command: `echo 'export FROM_START=cwd' >> "$CLAUDE_ENV_FILE"` }] }],
      PreToolUse: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'Bash', input: { command: 'cd sub && echo moved' } }] },
      { toolCalls: [{ id: 't2', name: 'Bash', input: { command: 'echo "$FROM_START $(pwd) $(cat marker.txt)"' } }] },
      { text: 'done' },
    ]);
    const s = await sb.session({ model, prompter: allowAll });
    await s.submit('go');
    const sub = `${s.workspace}/sub`;
    expect(s.cwd).toBe(sub);
    expect(sb.events()).toEqual(['PreToolUse', 'CwdChanged', 'PreToolUse']);
    expect(sb.entries()[1]).toMatchObject({ old_cwd: s.workspace, new_cwd: sub, cwd: sub });
    expect(sb.entries()[2]).toMatchObject({ cwd: sub });
    expect(s.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['moved\n', `cwd ${sub} x\n`]);
    expect(s.dynamicEnv).toEqual({ FROM_START: 'cwd' });
  });

  it('a cd outside the workspace is not followed (the model is told); no CwdChanged; setCwd refuses it', async () => {
    sb.settings({ CwdChanged: [{ hooks: [hook(sb.log)] }] });
    const model = scriptedModel([{ toolCalls: [{ id: 't1', name: 'Bash', input: { command: 'cd / && echo out' } }] }, { text: 'done' }]);
    const s = await sb.session({ model, prompter: allowAll });
    await s.submit('go');
    expect(s.cwd).toBe(s.workspace);
    expect(s.messages.find((m) => m.role === 'tool')!.content).toMatch(/out\nShell cwd was reset to .*outside the workspace/);
    await expect(s.setCwd('/')).rejects.toThrow(/outside the workspace/);
    expect(sb.events()).toEqual([]);
  });

  it('setCwd fires CwdChanged; its watchPaths feed FileChanged', async () => {
    mkdirSync(sb.dir.path('ws/app'), { recursive: true });
    const watched = sb.dir.path('ws/app/.envrc');
    sb.settings({
      CwdChanged: [
        {
          hooks: [
            hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'CwdChanged', watchPaths: [`${realpathSync(sb.ws)}/app/.envrc`] } })),
          ],
        },
      ],
      FileChanged: [{ hooks: [hook(sb.log)] }],
    });
    const s = await sb.session({ model: scriptedModel([]), fileWatchDebounceMs: 50 });
    await s.setCwd('app');
    expect(s.watchedPaths()).toEqual([`${s.workspace}/app/.envrc`]);
    writeFileSync(watched, 'use node\n');
    await until(() => sb.events().includes('FileChanged'));
    expect(sb.entries().find((e) => e.hook_event_name === 'FileChanged')).toMatchObject({
      file_path: `${s.workspace}/app/.envrc`,
      event: 'add',
    });
  });
});

describe('FileChanged', () => {
  it('watches matcher names in the cwd and SessionStart watchPaths; change/add/unlink; the matcher filters on the basename; env applies', async () => {
    const ws = realpathSync(sb.ws);
    writeFileSync(path.join(ws, '.env'), 'A=1\n');
    sb.settings({
      SessionStart: [
        { hooks: [hook(sb.log, json({ hookSpecificOutput: { hookEventName: 'SessionStart', watchPaths: [path.join(ws, 'data.csv')] } }))] },
      ],
      FileChanged: [
        {
          matcher: '.env',
          hooks: [hook(sb.log, 'text:env-hook'), { type: 'command', command: `echo 'export FROM_START=file' >> "$CLAUDE_ENV_FILE"` }],
        },
        { matcher: 'data.csv', hooks: [hook(sb.log)] },
      ],
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'Bash', input: { command: 'echo "v=$FROM_START"' } }] },
      { text: 'done' },
    ]);
    const s = await sb.session({ model, prompter: allowAll, fileWatchDebounceMs: 50 });
    expect(s.watchedPaths().sort()).toEqual([path.join(ws, '.env'), path.join(ws, 'data.csv')]);
    const changes = () =>
      sb
        .entries()
        .filter((e) => e.hook_event_name === 'FileChanged')
        .map((e) => [path.basename(String(e.file_path)), e.event]);
    writeFileSync(path.join(ws, '.env'), 'A=2\n');
    await until(() => changes().length === 1);
    writeFileSync(path.join(ws, 'data.csv'), 'a,b\n');
    await until(() => changes().length === 2);
    execFileSync('rm', [path.join(ws, 'data.csv')]);
    await until(() => changes().length === 3);
    writeFileSync(path.join(ws, 'other.txt'), 'not watched\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(changes()).toEqual([
      ['.env', 'change'],
      ['data.csv', 'add'],
      ['data.csv', 'unlink'],
    ]);
    await s.submit('go');
    expect(s.messages.find((m) => m.role === 'tool')!.content).toBe('v=file\n');
    // Closed at session end: later writes fire nothing.
    await s.end();
    writeFileSync(path.join(ws, '.env'), 'A=3\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(changes()).toHaveLength(3);
  });
});

describe('DirectoryAdded', () => {
  it('addDirectory extends the confinement and fires DirectoryAdded; systemMessage reaches the model (slash_command)', async () => {
    const other = sb.dir.path('other');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'notes.md'), 'hello from other\n');
    sb.settings({ DirectoryAdded: [{ matcher: 'slash_command', hooks: [hook(sb.log, json({ systemMessage: 'other repo uses pnpm' }))] }] });
    const otherReal = realpathSync(other);
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'Read', input: { file_path: path.join(otherReal, 'notes.md') } }] },
      { text: 'done' },
      { toolCalls: [{ id: 't2', name: 'Read', input: { file_path: path.join(otherReal, 'notes.md') } }] },
      { text: 'done' },
    ]);
    const s = await sb.session({ model, prompter: allowAll });
    await s.submit('before');
    expect(s.messages.filter((m) => m.role === 'tool')[0]!.content).toMatch(/outside the workspace/);
    await s.addDirectory(other);
    expect(sb.entries()).toMatchObject([{ hook_event_name: 'DirectoryAdded', directory: otherReal, source: 'slash_command' }]);
    expect(s.directories).toEqual([otherReal]);
    await s.submit('after');
    expect(s.messages.filter((m) => m.role === 'tool')[1]!.content).toContain('hello from other');
    expect(s.messages.some((m) => m.content.includes('<hook-context source="DirectoryAdded">other repo uses pnpm</hook-context>'))).toBe(
      true,
    );
    await expect(s.addDirectory(other)).rejects.toThrow(/already a working directory/);
    await s.addDirectory(sb.dir.path('home'), 'register_repo_root');
    expect(sb.events()).toEqual(['DirectoryAdded']); // the matcher filters on source
  });
});

describe('UserPromptExpansion', () => {
  it('/name args expands from .claude/commands before UserPromptSubmit; additionalContext is injected; the matcher is the command name', async () => {
    sb.dir.write('ws/.claude/commands/review.md', '---\ndescription: review\n---\nReview $ARGUMENTS carefully, starting with $1.\n');
    sb.settings({
      UserPromptExpansion: [
        {
          matcher: 'review',
          hooks: [
            hook(
              sb.log,
              json({ hookSpecificOutput: { hookEventName: 'UserPromptExpansion', additionalContext: 'use the team checklist' } }),
            ),
          ],
        },
        { matcher: 'deploy', hooks: [hook(sb.log, 'exit2:deploys need approval')] },
      ],
      UserPromptSubmit: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([{ text: 'reviewed' }]);
    const s = await sb.session({ model });
    const r = await s.submit('/review src/a.ts src/b.ts');
    expect(r.status).toBe('completed');
    expect(sb.events()).toEqual(['UserPromptExpansion', 'UserPromptSubmit']);
    expect(sb.entries()[0]).toMatchObject({
      expansion_type: 'slash_command',
      command_name: 'review',
      command_args: 'src/a.ts src/b.ts',
      command_source: 'project',
      prompt: '/review src/a.ts src/b.ts',
    });
    expect(sb.entries()[1]).toMatchObject({ prompt: 'Review src/a.ts src/b.ts carefully, starting with src/a.ts.' });
    const sent = model.requests[0]!.messages.map((m) => m.content);
    expect(sent).toEqual([
      'Review src/a.ts src/b.ts carefully, starting with src/a.ts.',
      '<hook-context source="UserPromptExpansion">use the team checklist</hook-context>',
    ]);
  });

  it('a block stops the expansion: the command never reaches the conversation nor UserPromptSubmit; unknown commands pass as typed', async () => {
    sb.dir.write('ws/.claude/commands/deploy.md', 'Deploy to $ARGUMENTS\n');
    sb.dir.write('ws/.claude/skills/lint/SKILL.md', '---\nname: lint\ndescription: lint\n---\nRun the linter.\n');
    sb.settings({
      UserPromptExpansion: [
        { matcher: 'deploy', hooks: [hook(sb.log, 'exit2:deploys need approval')] },
        { matcher: 'lint', hooks: [hook(sb.log)] },
      ],
      UserPromptSubmit: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([{ text: 'ok' }, { text: 'ok' }]);
    const s = await sb.session({ model });
    const r = await s.submit('/deploy prod');
    expect(r).toMatchObject({ status: 'blocked', reason: 'deploys need approval' });
    expect(s.messages).toEqual([]);
    await s.submit('/lint');
    await s.submit('/nosuch thing');
    expect(sb.entries().map((e) => [e.hook_event_name, e.command_source ?? e.prompt])).toEqual([
      ['UserPromptExpansion', 'project'],
      ['UserPromptExpansion', 'skill'],
      ['UserPromptSubmit', 'Run the linter.'],
      ['UserPromptSubmit', '/nosuch thing'],
    ]);
  });
});

describe('TaskCreated, TaskStarted, TaskCompleted', () => {
  it('TaskCreate fires TaskCreated; a block rolls the creation back and the model reads the reason', async () => {
    // Exit 2 unless the subject starts with a ticket number.
    const guard = {
      type: 'command',
      command: `node -e 'let d="";process.stdin.on("data",c=>d+=c).on("end",()=>{const s=JSON.parse(d).task_subject;if(!/^\\[T-\\d+\\]/.test(s)){process.stderr.write("subject needs a ticket: "+s);process.exit(2)}})'`,
    };
    sb.settings({ TaskCreated: [{ hooks: [hook(sb.log), guard] }] });
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'TaskCreate', input: { subject: 'Add login', description: 'endpoints' } }] },
      { toolCalls: [{ id: 't2', name: 'TaskCreate', input: { subject: '[T-1] Add login' } }] },
      { text: 'done' },
    ]);
    const s = await sb.session({ model });
    await s.submit('plan it');
    expect(sb.entries().map((e) => [e.hook_event_name, e.task_id, e.task_subject, e.task_description])).toEqual([
      ['TaskCreated', 'task-001', 'Add login', 'endpoints'],
      ['TaskCreated', 'task-002', '[T-1] Add login', undefined],
    ]);
    const results = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe('Error: subject needs a ticket: Add login');
    expect(results[1]).toBe('Created task-002: [T-1] Add login');
    expect(s.tasks()).toEqual([{ id: 'task-002', subject: '[T-1] Add login', status: 'pending' }]);
  });

  it('in_progress fires TaskStarted; TaskCompleted exit 2 keeps the task open with stderr as feedback', async () => {
    const flag = sb.dir.path('tests-pass');
    const gate = { type: 'command', command: `test -f '${flag}' || { echo 'tests are failing' >&2; exit 2; }` };
    sb.settings({ TaskStarted: [{ hooks: [hook(sb.log)] }], TaskCompleted: [{ hooks: [hook(sb.log), gate] }] });
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'TaskCreate', input: { subject: 'Fix bug' } }] },
      { toolCalls: [{ id: 't2', name: 'TaskUpdate', input: { taskId: 'task-001', status: 'in_progress' } }] },
      { toolCalls: [{ id: 't3', name: 'TaskUpdate', input: { taskId: 'task-001', status: 'completed' } }] },
      () => {
        writeFileSync(flag, '');
        return { text: '', toolCalls: [{ id: 't4', name: 'TaskUpdate', input: { taskId: 'task-001', status: 'completed' } }] };
      },
      { text: 'done' },
    ]);
    const s = await sb.session({ model });
    await s.submit('go');
    expect(sb.entries().map((e) => [e.hook_event_name, e.task_id])).toEqual([
      ['TaskStarted', 'task-001'],
      ['TaskCompleted', 'task-001'],
      ['TaskCompleted', 'task-001'],
    ]);
    const results = s.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[2]).toBe('Error: task-001 was not completed: tests are failing');
    expect(results[3]).toBe('task-001 is completed: Fix bug');
    expect(s.tasks()[0]!.status).toBe('completed');
  });
});

describe('WorktreeCreate, WorktreeRemove', () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' });
  const gitRepo = () => {
    sb.dir.write('ws/README.md', 'repo\n');
    git(sb.ws, 'init', '-q');
    git(sb.ws, 'add', 'README.md');
    git(sb.ws, 'commit', '-q', '-m', 'init');
  };

  it('a worktree subagent runs in a git worktree (default creation); WorktreeRemove fires when it finishes and the worktree is removed', async () => {
    gitRepo();
    sb.settings({
      WorktreeRemove: [{ hooks: [hook(sb.log)] }],
      SubagentStart: [{ hooks: [hook(sb.log)] }],
      PreToolUse: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([
      {
        toolCalls: [
          {
            id: 't1',
            name: 'Task',
            input: { description: 'iso', prompt: 'edit in isolation', subagent_type: 'general-purpose', isolation: 'worktree' },
          },
        ],
      },
      { toolCalls: [{ id: 's1', name: 'Bash', input: { command: 'pwd -P; echo changed > README.md; git status --porcelain' } }] },
      { text: 'sub done' },
      { text: 'main done' },
    ]);
    const sub: string[] = [];
    const s = await sb.session({
      model,
      prompter: allowAll,
      onTrace: (e) => e.kind === 'tool' && e.actor.agentId && sub.push(e.outcome.content),
    });
    await s.submit('go');
    const wtTool = sub[0]!;
    const wtPath = wtTool.split('\n')[0]!;
    expect(wtPath).toMatch(new RegExp(`^${s.workspace}/\\.claude/worktrees/agent-`));
    expect(wtTool).toContain(' M README.md');
    // The main workspace is untouched; the worktree is gone.
    expect(readFileSync(path.join(s.workspace, 'README.md'), 'utf8')).toBe('repo\n');
    expect(existsSync(wtPath)).toBe(false);
    expect(git(s.workspace, 'worktree', 'list')).not.toContain(wtPath);
    expect(sb.entries().map((e) => [e.hook_event_name, e.cwd])).toEqual([
      ['PreToolUse', s.workspace],
      ['SubagentStart', wtPath],
      ['PreToolUse', wtPath],
      ['WorktreeRemove', s.workspace],
    ]);
    expect(sb.entries()[3]).toMatchObject({ worktree_path: wtPath });
  });

  it('a WorktreeCreate hook replaces creation with the path it prints; a failing hook fails creation (the subagent never runs)', async () => {
    const alt = sb.dir.path('alt-wt');
    mkdirSync(alt, { recursive: true });
    const altReal = realpathSync(alt);
    sb.settings({
      WorktreeCreate: [{ hooks: [hook(sb.log, `text:banner\n${alt}\n`)] }],
      WorktreeRemove: [{ hooks: [hook(sb.log)] }],
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 't1', name: 'Task', input: { description: 'iso', prompt: 'p', subagent_type: 'general-purpose', isolation: 'worktree' } },
        ],
      },
      { toolCalls: [{ id: 's1', name: 'Write', input: { file_path: path.join(altReal, 'out.txt'), content: 'hi' } }] },
      { text: 'sub done' },
      { text: 'main done' },
    ]);
    const sub: string[] = [];
    const s = await sb.session({
      model,
      prompter: allowAll,
      onTrace: (e) => e.kind === 'tool' && e.actor.agentId && sub.push(e.outcome.content),
    });
    await s.submit('go');
    expect(s.messages.find((m) => m.role === 'tool')!.content).toBe('sub done');
    expect(sub).toEqual([`Created ${path.join(altReal, 'out.txt')}`]);
    // Not a git repo: the hook replaced git entirely. The subagent could write inside its worktree.
    expect(readFileSync(path.join(altReal, 'out.txt'), 'utf8')).toBe('hi');
    expect(sb.entries().map((e) => [e.hook_event_name, e.name ?? e.worktree_path])).toEqual([
      ['WorktreeCreate', expect.stringMatching(/^agent-/)],
      ['WorktreeRemove', altReal],
    ]);
    expect(s.directories).toEqual([]); // the worktree left the confinement roots

    sb.settings({ WorktreeCreate: [{ hooks: [hook(sb.log, 'fail')] }] });
    const model2 = scriptedModel([
      {
        toolCalls: [
          { id: 't1', name: 'Task', input: { description: 'iso', prompt: 'p', subagent_type: 'general-purpose', isolation: 'worktree' } },
        ],
      },
      { text: 'main done' },
    ]);
    const s2 = await sb.session({ model: model2, prompter: allowAll });
    await s2.submit('go');
    expect(s2.messages.find((m) => m.role === 'tool')!.content).toMatch(/^Error: worktree creation failed/);
    expect(model2.requests).toHaveLength(2); // no subagent model call
  });
});

describe('ConfigChange', () => {
  it('a changed settings file fires ConfigChange (source, file_path); the session is rebound to the new config', async () => {
    sb.settings({ ConfigChange: [{ matcher: 'project_settings', hooks: [hook(sb.log)] }] });
    const s = await sb.session({ model: scriptedModel([{ text: 'ok' }]), fileWatchDebounceMs: 50 });
    expect(s.hooks.hooks('UserPromptSubmit')).toHaveLength(0);
    sb.settings({ ConfigChange: [{ matcher: 'project_settings', hooks: [hook(sb.log)] }], UserPromptSubmit: [{ hooks: [hook(sb.log)] }] });
    await until(() => s.hooks.hooks('UserPromptSubmit').length === 1);
    expect(sb.entries()[0]).toMatchObject({
      hook_event_name: 'ConfigChange',
      source: 'project_settings',
      file_path: `${s.workspace}/.claude/settings.json`,
    });
    await s.submit('hi');
    expect(sb.events().slice(-1)).toEqual(['UserPromptSubmit']);
  });

  it('a block keeps the old snapshot', async () => {
    sb.settings({ ConfigChange: [{ hooks: [hook(sb.log, 'exit2:needs admin approval')] }] });
    const s = await sb.session({ model: scriptedModel([{ text: 'ok' }]), fileWatchDebounceMs: 50 });
    sb.settings({ UserPromptSubmit: [{ hooks: [hook(sb.log)] }] });
    await until(() => sb.events().includes('ConfigChange'));
    await new Promise((r) => setTimeout(r, 300));
    expect(s.hooks.hooks('UserPromptSubmit')).toHaveLength(0);
    expect(s.hooks.hooks('ConfigChange')).toHaveLength(1);
    await s.submit('hi');
    expect(sb.events().filter((e) => e !== 'ConfigChange')).toEqual([]);
  });
});

describe('TeammateIdle', () => {
  it('is not fired: the runtime has no agent teams (docs/host.md)', async () => {
    sb.settings({ TeammateIdle: [{ hooks: [hook(sb.log)] }] });
    const s = await sb.session({ model: scriptedModel([{ text: 'ok' }]) });
    await s.submit('hi');
    await s.end();
    expect(sb.events()).toEqual([]);
  });
});
