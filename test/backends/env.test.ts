import { describe, expect, it } from 'vitest';
import { buildHookEnv, substitutePlaceholders } from '../../src/backends/env.js';
import { substituteForShell } from '../../src/backends/shell-placeholders.js';

describe('buildHookEnv', () => {
  const base = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/u',
    USER: 'u',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TMPDIR: '/tmp',
    TZ: 'UTC',
    AWS_SECRET_ACCESS_KEY: 'secret',
    ANTHROPIC_API_KEY: 'sk-secret',
    NODE_OPTIONS: '--require evil.js',
    CLAUDE_PROJECT_DIR: '/from/host',
  };

  it('keeps only the allow-listed host variables', () => {
    expect(buildHookEnv({ base, platform: 'linux' })).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      USER: 'u',
      SHELL: '/bin/bash',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp',
      TZ: 'UTC',
    });
  });

  it('defaults to process.env, still filtered', () => {
    process.env.AGENT_HOOKS_ENV_TEST_SECRET = 'x';
    try {
      const env = buildHookEnv();
      expect(env.AGENT_HOOKS_ENV_TEST_SECRET).toBeUndefined();
      expect(env.PATH).toBe(process.env.PATH);
    } finally {
      delete process.env.AGENT_HOOKS_ENV_TEST_SECRET;
    }
  });

  it('precedence: host < session < CLAUDE_* locations < hook env', () => {
    const env = buildHookEnv({
      base,
      platform: 'linux',
      sessionEnv: { PATH: '/session/bin', FOO: 'session', CLAUDE_PROJECT_DIR: '/session/dir', BAR: 'session' },
      projectDir: '/project',
      pluginRoot: '/plugin',
      pluginData: '/plugin-data',
      envFile: '/tmp/env-file',
      hookEnv: { FOO: 'hook', CLAUDE_PLUGIN_ROOT: '/hook/override' },
    });
    expect(env).toMatchObject({
      PATH: '/session/bin',
      FOO: 'hook',
      BAR: 'session',
      CLAUDE_PROJECT_DIR: '/project',
      CLAUDE_PLUGIN_ROOT: '/hook/override',
      CLAUDE_PLUGIN_DATA: '/plugin-data',
      CLAUDE_ENV_FILE: '/tmp/env-file',
      HOME: '/home/u',
    });
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
  });

  it('sets CLAUDE_* only when given, and a host value does not leak through', () => {
    const env = buildHookEnv({ base, platform: 'linux' });
    expect(Object.keys(env).filter((k) => k.startsWith('CLAUDE_'))).toEqual([]);
  });

  it('on Windows finds keys case-insensitively and keeps the system variables', () => {
    const env = buildHookEnv({
      base: { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', COMSPEC: 'cmd.exe', SECRET_TOKEN: 't' },
      platform: 'win32',
    });
    expect(env).toEqual({ PATH: 'C:\\Windows', SystemRoot: 'C:\\Windows', ComSpec: 'cmd.exe' });
  });

  it('never passes a refused variable, however its name is cased (Windows ignores the case)', () => {
    const host = { NODE_OPTIONS: '--require C:\\evil.js', BASH_ENV: 'x', PATH: 'C:\\bin', KEEP: 'k' };
    const env = buildHookEnv({ base: host, passEnv: ['node_options', 'Bash_Env', 'KEEP'], platform: 'win32' });
    expect(Object.keys(env).map((k) => k.toUpperCase())).not.toContain('NODE_OPTIONS');
    expect(Object.keys(env).map((k) => k.toUpperCase())).not.toContain('BASH_ENV');
    expect(env.KEEP).toBe('k');
  });

  it('skips non-string values instead of passing them to spawn', () => {
    const env = buildHookEnv({ base: {}, hookEnv: { A: 'a', B: 1 as unknown as string } });
    expect(env).toEqual({ A: 'a' });
  });
});

describe('substitutePlaceholders', () => {
  const vars = { CLAUDE_PROJECT_DIR: '/proj', CLAUDE_PLUGIN_ROOT: '/plug', CLAUDE_PLUGIN_DATA: '/data' };

  it('replaces the three placeholders, every occurrence', () => {
    expect(substitutePlaceholders('${CLAUDE_PLUGIN_ROOT}/a ${CLAUDE_PROJECT_DIR} ${CLAUDE_PLUGIN_DATA} ${CLAUDE_PLUGIN_ROOT}', vars)).toBe(
      '/plug/a /proj /data /plug',
    );
  });

  it('leaves unknown placeholders and other shell syntax alone', () => {
    const text = '${HOME} $CLAUDE_PROJECT_DIR ${CLAUDE_PROJECT_DIR:-x} ${user_config.key} $(pwd)';
    expect(substitutePlaceholders(text, vars)).toBe(text);
  });

  it('leaves a placeholder without a value as it is', () => {
    expect(substitutePlaceholders('${CLAUDE_PLUGIN_ROOT}/x', { CLAUDE_PROJECT_DIR: '/p' })).toBe('${CLAUDE_PLUGIN_ROOT}/x');
  });

  it('inserts values as plain strings, even with $& or $1 in them', () => {
    expect(substitutePlaceholders('${CLAUDE_PROJECT_DIR}/x', { CLAUDE_PROJECT_DIR: "/a$&b$1'c" })).toBe("/a$&b$1'c/x");
  });
});

describe('substituteForShell', () => {
  it('pastes ordinary paths, so single-quoted placeholders keep working', () => {
    expect(substituteForShell("'${CLAUDE_PLUGIN_ROOT}/hook.sh' --x", { CLAUDE_PLUGIN_ROOT: '/opt/my plugin-1.0' }, 'sh')).toBe(
      "'/opt/my plugin-1.0/hook.sh' --x",
    );
  });

  it('leaves values with shell metacharacters to the shell to expand from the environment', () => {
    for (const value of ['/p/$(rm -rf ~)', '/p/`id`', '/p/"q"', "/p/'q'", '/p/a;b', '/p/*', '~/x', '/p/a\nb', '/p/a\\b']) {
      expect(substituteForShell('"${CLAUDE_PROJECT_DIR}/x"', { CLAUDE_PROJECT_DIR: value }, 'bash')).toBe('"${CLAUDE_PROJECT_DIR}/x"');
    }
  });

  it('uses ${env:NAME} for PowerShell', () => {
    expect(substituteForShell('& "${CLAUDE_PROJECT_DIR}\\x.ps1"', { CLAUDE_PROJECT_DIR: "C:\\it's" }, 'powershell')).toBe(
      '& "${env:CLAUDE_PROJECT_DIR}\\x.ps1"',
    );
    expect(substituteForShell('& "${CLAUDE_PROJECT_DIR}\\x.ps1"', { CLAUDE_PROJECT_DIR: 'C:\\proj' }, 'powershell')).toBe(
      '& "C:\\proj\\x.ps1"',
    );
  });
});
