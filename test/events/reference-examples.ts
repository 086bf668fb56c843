/**
 * JSON examples copied from Claude Code's hooks reference
 * (shared/reference/claude-code-hooks-reference.md), grouped by the section
 * they appear in. Facts, carried over as test data.
 *
 * Left out: the PreToolUse Windows `Write` input, which elides fields with
 * `...` and is not valid JSON.
 */

export interface InputExample {
  event: string;
  section: string;
  input: Record<string, unknown>;
}

export interface OutputExample {
  /** Events the example applies to. */
  events: string[];
  section: string;
  output: Record<string, unknown>;
}

export const INPUT_EXAMPLES: InputExample[] = [
  {
    event: 'PreToolUse',
    section: 'Common input fields',
    input: {
      session_id: 'abc123',
      prompt_id: '550e8400-e29b-41d4-a716-446655440000',
      transcript_path: '/home/user/.claude/projects/.../transcript.jsonl',
      cwd: '/home/user/my-project',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: {
        command: 'npm test',
        description: 'Run test suite',
        timeout: 120000,
        run_in_background: false,
      },
      tool_use_id: 'toolu_01ABC123...',
    },
  },
  {
    event: 'SessionStart',
    section: 'SessionStart',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'SessionStart',
      source: 'startup',
      model: 'claude-sonnet-5',
    },
  },
  {
    event: 'Setup',
    section: 'Setup',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'Setup',
      trigger: 'init',
    },
  },
  {
    event: 'InstructionsLoaded',
    section: 'InstructionsLoaded',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../transcript.jsonl',
      cwd: '/Users/my-project',
      hook_event_name: 'InstructionsLoaded',
      file_path: '/Users/my-project/CLAUDE.md',
      memory_type: 'Project',
      load_reason: 'session_start',
    },
  },
  {
    event: 'UserPromptSubmit',
    section: 'UserPromptSubmit',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Write a function to calculate the factorial of a number',
    },
  },
  {
    event: 'UserPromptExpansion',
    section: 'UserPromptExpansion',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../00893aaf.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'example-skill',
      command_args: 'arg1 arg2',
      command_source: 'plugin',
      prompt: '/example-skill arg1 arg2',
    },
  },
  {
    event: 'MessageDisplay',
    section: 'MessageDisplay',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../transcript.jsonl',
      cwd: '/Users/my-project',
      hook_event_name: 'MessageDisplay',
      turn_id: '0c9e6a2f-7d41-4f4e-9a15-3f4f7c2b8d10',
      message_id: '5b2a9c8e-1f63-4d8a-b7c4-9e0d2a6f1c3b',
      index: 0,
      final: false,
      delta: 'Here is the plan:\n',
    },
  },
  {
    event: 'PermissionRequest',
    section: 'PermissionRequest',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: {
        command: 'rm -rf node_modules',
        description: 'Remove node_modules directory',
      },
      permission_suggestions: [
        {
          type: 'addRules',
          rules: [
            {
              toolName: 'Bash',
              ruleContent: 'rm -rf node_modules',
            },
          ],
          behavior: 'allow',
          destination: 'localSettings',
        },
      ],
    },
  },
  {
    event: 'PostToolUse',
    section: 'PostToolUse',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: {
        file_path: '/path/to/file.txt',
        content: 'file content',
      },
      tool_response: {
        filePath: '/path/to/file.txt',
        success: true,
      },
      tool_use_id: 'toolu_01ABC123...',
      duration_ms: 12,
    },
  },
  {
    event: 'PostToolUseFailure',
    section: 'PostToolUseFailure',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      tool_input: {
        command: 'npm test',
        description: 'Run test suite',
      },
      tool_use_id: 'toolu_01ABC123...',
      error: "Exit code 1\nError: Cannot find module 'express'",
      is_interrupt: false,
      duration_ms: 4187,
    },
  },
  {
    event: 'PostToolBatch',
    section: 'PostToolBatch',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'PostToolBatch',
      tool_calls: [
        {
          tool_name: 'Read',
          tool_input: {
            file_path: '/.../ledger/accounts.py',
          },
          tool_use_id: 'toolu_01...',
          tool_response: '     1\tfrom __future__ import annotations\n     2\t...',
        },
        {
          tool_name: 'Read',
          tool_input: {
            file_path: '/.../ledger/transactions.py',
          },
          tool_use_id: 'toolu_02...',
          tool_response: '     1\tfrom __future__ import annotations\n     2\t...',
        },
      ],
    },
  },
  {
    event: 'PermissionDenied',
    section: 'PermissionDenied',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'auto',
      hook_event_name: 'PermissionDenied',
      tool_name: 'Bash',
      tool_input: {
        command: 'rm -rf /tmp/build',
        description: 'Clean build directory',
      },
      tool_use_id: 'toolu_01ABC123...',
      reason: 'Blocked by classifier',
    },
  },
  {
    event: 'Notification',
    section: 'Notification',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'Notification',
      message: 'Claude needs your permission',
      title: 'Permission needed',
      notification_type: 'permission_prompt',
    },
  },
  {
    event: 'SubagentStart',
    section: 'SubagentStart',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'SubagentStart',
      agent_id: 'agent-abc123',
      agent_type: 'Explore',
    },
  },
  {
    event: 'SubagentStop',
    section: 'SubagentStop',
    input: {
      session_id: 'abc123',
      transcript_path: '~/.claude/projects/.../abc123.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
      agent_id: 'def456',
      agent_type: 'Explore',
      agent_transcript_path: '~/.claude/projects/.../abc123/subagents/agent-def456.jsonl',
      last_assistant_message: 'Analysis complete. Found 3 potential issues...',
      background_tasks: [],
      session_crons: [],
    },
  },
  {
    event: 'TaskCreated',
    section: 'TaskCreated',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'TaskCreated',
      task_id: 'task-001',
      task_subject: 'Implement user authentication',
      task_description: 'Add login and signup endpoints',
      teammate_name: 'implementer',
      team_name: 'session-a1b2c3d4',
    },
  },
  {
    event: 'TaskCompleted',
    section: 'TaskCompleted',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'TaskCompleted',
      task_id: 'task-001',
      task_subject: 'Implement user authentication',
      task_description: 'Add login and signup endpoints',
      teammate_name: 'implementer',
      team_name: 'session-a1b2c3d4',
    },
  },
  {
    event: 'Stop',
    section: 'Stop',
    input: {
      session_id: 'abc123',
      transcript_path: '~/.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'Stop',
      stop_hook_active: true,
      last_assistant_message: "I've completed the refactoring. Here's a summary...",
      background_tasks: [
        {
          id: 'task-001',
          type: 'shell',
          status: 'running',
          description: 'tail logs',
          command: 'tail -f /var/log/syslog',
        },
      ],
      session_crons: [
        {
          id: 'cron-001',
          schedule: '0 9 * * 1-5',
          recurring: true,
          prompt: 'check the build',
        },
      ],
    },
  },
  {
    event: 'StopFailure',
    section: 'StopFailure',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'StopFailure',
      error: 'rate_limit',
      error_details: '429 Too Many Requests',
      last_assistant_message: 'API Error: Rate limit reached',
    },
  },
  {
    event: 'TeammateIdle',
    section: 'TeammateIdle',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'TeammateIdle',
      teammate_name: 'researcher',
      team_name: 'session-a1b2c3d4',
    },
  },
  {
    event: 'ConfigChange',
    section: 'ConfigChange',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'ConfigChange',
      source: 'project_settings',
      file_path: '/Users/.../my-project/.claude/settings.json',
    },
  },
  {
    event: 'CwdChanged',
    section: 'CwdChanged',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../transcript.jsonl',
      cwd: '/Users/my-project/src',
      hook_event_name: 'CwdChanged',
      old_cwd: '/Users/my-project',
      new_cwd: '/Users/my-project/src',
    },
  },
  {
    event: 'DirectoryAdded',
    section: 'DirectoryAdded',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../transcript.jsonl',
      cwd: '/Users/my-project',
      hook_event_name: 'DirectoryAdded',
      directory: '/Users/my-other-repo',
      source: 'slash_command',
    },
  },
  {
    event: 'FileChanged',
    section: 'FileChanged',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../transcript.jsonl',
      cwd: '/Users/my-project',
      hook_event_name: 'FileChanged',
      file_path: '/Users/my-project/.envrc',
      event: 'change',
    },
  },
  {
    event: 'WorktreeCreate',
    section: 'WorktreeCreate',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'WorktreeCreate',
      name: 'feature-auth',
    },
  },
  {
    event: 'WorktreeRemove',
    section: 'WorktreeRemove',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'WorktreeRemove',
      worktree_path: '/Users/.../my-project/.claude/worktrees/feature-auth',
    },
  },
  {
    event: 'PreCompact',
    section: 'PreCompact',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: '',
    },
  },
  {
    event: 'PostCompact',
    section: 'PostCompact',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'PostCompact',
      trigger: 'manual',
      compact_summary: 'Summary of the compacted conversation...',
    },
  },
  {
    event: 'SessionEnd',
    section: 'SessionEnd',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      hook_event_name: 'SessionEnd',
      reason: 'other',
    },
  },
  {
    event: 'Elicitation',
    section: 'Elicitation',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'Elicitation',
      mcp_server_name: 'my-mcp-server',
      message: 'Please provide your credentials',
      mode: 'form',
      requested_schema: {
        type: 'object',
        properties: {
          username: {
            type: 'string',
            title: 'Username',
          },
        },
      },
    },
  },
  {
    event: 'Elicitation',
    section: 'Elicitation',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'Elicitation',
      mcp_server_name: 'my-mcp-server',
      message: 'Please authenticate',
      mode: 'url',
      url: 'https://auth.example.com/login',
    },
  },
  {
    event: 'ElicitationResult',
    section: 'ElicitationResult',
    input: {
      session_id: 'abc123',
      transcript_path: '/Users/.../.claude/projects/.../00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: '/Users/...',
      permission_mode: 'default',
      hook_event_name: 'ElicitationResult',
      mcp_server_name: 'my-mcp-server',
      action: 'accept',
      content: {
        username: 'alice',
      },
      mode: 'form',
      elicitation_id: 'elicit-123',
    },
  },
];

export const OUTPUT_EXAMPLES: OutputExample[] = [
  {
    events: ['PreToolUse'],
    section: 'How a hook resolves',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'Destructive command blocked by hook',
      },
    },
  },
  {
    events: ['Stop', 'PreToolUse', 'TeammateIdle', 'TaskCompleted'],
    section: 'JSON output',
    output: {
      continue: false,
      stopReason: 'Build failed, fix errors before continuing',
    },
  },
  {
    events: ['PostToolUse'],
    section: 'Add context for Claude',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext: 'This file is generated. Edit src/schema.ts and run `bun generate` instead.',
      },
    },
  },
  {
    events: [
      'UserPromptSubmit',
      'UserPromptExpansion',
      'PostToolUse',
      'PostToolUseFailure',
      'PostToolBatch',
      'Stop',
      'SubagentStop',
      'ConfigChange',
      'PreCompact',
      'TaskCreated',
    ],
    section: 'Decision control',
    output: {
      decision: 'block',
      reason: 'Test suite must pass before proceeding',
    },
  },
  {
    events: ['PreToolUse'],
    section: 'Decision control',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'Database writes are not allowed',
      },
    },
  },
  {
    events: ['PermissionRequest'],
    section: 'Decision control',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: {
          behavior: 'allow',
          updatedInput: {
            command: 'npm run lint',
          },
        },
      },
    },
  },
  {
    events: ['SessionStart'],
    section: 'SessionStart',
    output: {
      hookSpecificOutput: {
        hookEventName: 'SessionStart',
        additionalContext:
          'Current branch: feat/auth-refactor\nUncommitted changes: src/auth.ts, src/login.tsx\nActive issue: #4211 Migrate to OAuth2',
        sessionTitle: 'auth-refactor',
      },
    },
  },
  {
    events: ['Setup'],
    section: 'Setup',
    output: {
      hookSpecificOutput: {
        hookEventName: 'Setup',
        additionalContext: 'Dependencies installed: node_modules, .venv',
      },
    },
  },
  {
    events: ['UserPromptSubmit'],
    section: 'UserPromptSubmit',
    output: {
      decision: 'block',
      reason: 'Explanation for decision',
      hookSpecificOutput: {
        hookEventName: 'UserPromptSubmit',
        additionalContext: 'My additional context here',
        sessionTitle: 'My session title',
      },
    },
  },
  {
    events: ['UserPromptExpansion'],
    section: 'UserPromptExpansion',
    output: {
      decision: 'block',
      reason: 'This slash command is not available',
      hookSpecificOutput: {
        hookEventName: 'UserPromptExpansion',
        additionalContext: 'Additional context for this expansion',
      },
    },
  },
  {
    events: ['PreToolUse'],
    section: 'PreToolUse',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'My reason here',
        updatedInput: {
          field_to_modify: 'new value',
        },
        additionalContext: 'Current environment: production. Proceed with caution.',
      },
    },
  },
  {
    events: ['PermissionRequest'],
    section: 'PermissionRequest',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: {
          behavior: 'allow',
          updatedInput: {
            command: 'npm run lint',
          },
        },
      },
    },
  },
  {
    events: ['PostToolUse'],
    section: 'PostToolUse',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext: 'Additional information for Claude',
        updatedToolOutput: {
          stdout: '[redacted]',
          stderr: '',
          interrupted: false,
          isImage: false,
        },
      },
    },
  },
  {
    events: ['PostToolUse'],
    section: 'PostToolUse',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        classifierContext: 'This query ran against the staging database, not production.',
      },
    },
  },
  {
    events: ['PostToolUseFailure'],
    section: 'PostToolUseFailure',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PostToolUseFailure',
        additionalContext: 'Additional information about the failure for Claude',
      },
    },
  },
  {
    events: ['PostToolBatch'],
    section: 'PostToolBatch',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PostToolBatch',
        additionalContext: 'These files are part of the ledger module. Run pytest before marking the task complete.',
      },
    },
  },
  {
    events: ['PermissionDenied'],
    section: 'PermissionDenied',
    output: {
      hookSpecificOutput: {
        hookEventName: 'PermissionDenied',
        retry: true,
      },
    },
  },
  {
    events: ['SubagentStart'],
    section: 'SubagentStart',
    output: {
      hookSpecificOutput: {
        hookEventName: 'SubagentStart',
        additionalContext: 'Follow security guidelines for this task',
      },
    },
  },
  {
    events: ['Stop'],
    section: 'Stop',
    output: {
      decision: 'block',
      reason: 'Must be provided when Claude is blocked from stopping',
    },
  },
  {
    events: ['Stop'],
    section: 'Stop',
    output: {
      hookSpecificOutput: {
        hookEventName: 'Stop',
        additionalContext: 'Please run the test suite before finishing',
      },
    },
  },
  {
    events: ['ConfigChange'],
    section: 'ConfigChange',
    output: {
      decision: 'block',
      reason: 'Configuration changes to project settings require admin approval',
    },
  },
  {
    events: ['Elicitation'],
    section: 'Elicitation',
    output: {
      hookSpecificOutput: {
        hookEventName: 'Elicitation',
        action: 'accept',
        content: {
          username: 'alice',
        },
      },
    },
  },
  {
    events: ['ElicitationResult'],
    section: 'ElicitationResult',
    output: {
      hookSpecificOutput: {
        hookEventName: 'ElicitationResult',
        action: 'decline',
        content: {},
      },
    },
  },
  {
    events: ['SessionStart'],
    section: 'SessionStart decision control (reloadSkills script)',
    output: {
      hookSpecificOutput: {
        hookEventName: 'SessionStart',
        reloadSkills: true,
      },
    },
  },
  {
    events: ['Notification', 'StopFailure'],
    section: 'Emit terminal notifications',
    output: {
      terminalSequence: '...',
    },
  },
  {
    events: ['TaskCreated'],
    section: 'TaskCreated decision control',
    output: {
      decision: 'block',
      reason: '...',
    },
  },
  {
    events: ['TeammateIdle', 'TaskCompleted'],
    section: 'TeammateIdle / TaskCompleted decision control',
    output: {
      continue: false,
      stopReason: '...',
    },
  },
  {
    events: ['WorktreeCreate'],
    section: 'WorktreeCreate output (HTTP hooks)',
    output: {
      hookSpecificOutput: {
        hookEventName: 'WorktreeCreate',
        worktreePath: '/absolute/path',
      },
    },
  },
  {
    // Shape of the jq output in the MessageDisplay example script, with the example input's delta.
    events: ['MessageDisplay'],
    section: 'MessageDisplay output (plain-display.sh)',
    output: {
      hookSpecificOutput: {
        hookEventName: 'MessageDisplay',
        displayContent: 'Here is the plan:\n',
      },
    },
  },
];
