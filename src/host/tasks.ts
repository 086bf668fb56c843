/**
 * The session's task list: TaskCreate, TaskUpdate and TaskList, with the task events.
 *
 *   TaskCreate → TaskCreated: a block (exit 2 / decision:block) deletes the task again and the
 *                model reads the reason as the tool's error; continue:false is ignored.
 *   TaskUpdate status in_progress → TaskStarted (Kimi; observe).
 *   TaskUpdate status completed → TaskCompleted: a block (exit 2) keeps the task open and the
 *                model reads stderr as feedback (the tool fails).
 * Statuses: pending → in_progress → completed (a task may go back to pending or in_progress
 * until it is completed; a completed task stays completed).
 */
import { z } from 'zod';
import type { Decision } from '../reduce/reduce.js';
import type { EventName } from '../events/catalog.js';
import { ToolError, type HostTool } from './types.js';

export type TaskStatus = 'pending' | 'in_progress' | 'completed';
export interface Task {
  id: string;
  subject: string;
  description?: string;
  status: TaskStatus;
}

export interface TaskList {
  tasks(): Task[];
  tools(): HostTool[];
}

const createInput = z.strictObject({ subject: z.string().min(1), description: z.string().optional() });
const updateInput = z.strictObject({
  taskId: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'completed']).optional(),
  subject: z.string().min(1).optional(),
  description: z.string().optional(),
});
const listInput = z.strictObject({});

export function createTaskList(emit: (event: EventName, input: Record<string, unknown>) => Promise<Decision>): TaskList {
  const tasks = new Map<string, Task>();
  let next = 1;
  const fields = (t: Task) => ({
    task_id: t.id,
    task_subject: t.subject,
    ...(t.description !== undefined ? { task_description: t.description } : {}),
  });
  const view = (t: Task) => ({ ...t });

  const create: HostTool<z.infer<typeof createInput>> = {
    name: 'TaskCreate',
    description: 'Add a task to the session task list (status pending).',
    inputSchema: createInput,
    selfChecked: true,
    async run(args) {
      const task: Task = {
        id: `task-${String(next++).padStart(3, '0')}`,
        subject: args.subject,
        ...(args.description !== undefined ? { description: args.description } : {}),
        status: 'pending',
      };
      tasks.set(task.id, task);
      const d = await emit('TaskCreated', fields(task));
      if (d.blocked) {
        tasks.delete(task.id);
        throw new ToolError(d.reason ?? 'a TaskCreated hook blocked the task', { task: view(task), created: false });
      }
      return { output: { task: view(task) }, content: `Created ${task.id}: ${task.subject}` };
    },
  };

  const update: HostTool<z.infer<typeof updateInput>> = {
    name: 'TaskUpdate',
    description: 'Update a task: status pending | in_progress | completed, subject, description.',
    inputSchema: updateInput,
    selfChecked: true,
    async run(args) {
      const task = tasks.get(args.taskId);
      if (!task) throw new ToolError(`no task ${JSON.stringify(args.taskId)}`);
      if (task.status === 'completed' && args.status && args.status !== 'completed') throw new ToolError(`${task.id} is completed`);
      if (args.subject !== undefined) task.subject = args.subject;
      if (args.description !== undefined) task.description = args.description;
      if (args.status === 'completed' && task.status !== 'completed') {
        const d = await emit('TaskCompleted', fields(task));
        if (d.blocked)
          throw new ToolError(`${task.id} was not completed: ${d.reason ?? 'a TaskCompleted hook kept it open'}`, {
            task: view(task),
            completed: false,
          });
        task.status = 'completed';
      } else if (args.status === 'in_progress' && task.status !== 'in_progress') {
        task.status = 'in_progress';
        await emit('TaskStarted', { ...fields(task), task_type: 'task_list' });
      } else if (args.status !== undefined) {
        task.status = args.status;
      }
      return { output: { task: view(task) }, content: `${task.id} is ${task.status}: ${task.subject}` };
    },
  };

  const list: HostTool<z.infer<typeof listInput>> = {
    name: 'TaskList',
    description: 'List the tasks of the session.',
    inputSchema: listInput,
    readOnly: true,
    async run() {
      const all = [...tasks.values()].map(view);
      return {
        output: { tasks: all },
        content: all.length ? all.map((t) => `${t.id} [${t.status}] ${t.subject}`).join('\n') : '(no tasks)',
      };
    },
  };

  return { tasks: () => [...tasks.values()].map(view), tools: () => [create, update, list] as unknown as HostTool[] };
}
