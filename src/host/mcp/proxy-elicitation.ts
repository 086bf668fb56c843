/** elicitation/create from the server through the proxy: Elicitation hooks, the client's user, ElicitationResult hooks (./elicit.ts). */
import { elicit, formatElicitationTrace, type ElicitationAnswer, type ElicitationRequest } from './elicit.js';
import { hookInput, key, loadSdk, requestClient, toServer, type Id, type Msg, type ProxyState } from './proxy-state.js';

export async function onElicitation(s: ProxyState, msg: Msg & { id: Id }) {
  const { types } = await loadSdk();
  const parsed = types.ElicitRequestParamsSchema.safeParse(msg.params);
  if (!parsed.success) {
    void toServer(s, {
      jsonrpc: '2.0',
      id: msg.id,
      error: { code: types.ErrorCode.InvalidParams, message: `Invalid elicitation request: ${parsed.error.message}` },
    });
    return;
  }
  const raw = msg.params as Record<string, unknown>;
  if (raw.task !== undefined) {
    void toServer(s, {
      jsonrpc: '2.0',
      id: msg.id,
      error: { code: types.ErrorCode.InvalidParams, message: 'task-augmented elicitation is not supported through agent-hooks mcp-proxy' },
    });
    return;
  }
  const p = parsed.data as Record<string, unknown>;
  const mode = p.mode === 'url' ? 'url' : 'form';
  const request: ElicitationRequest = { server: s.name, message: String(p.message), mode };
  if (mode === 'form') request.requestedSchema = raw.requestedSchema as Record<string, unknown>;
  if (typeof p.url === 'string') request.url = p.url;
  if (typeof p.elicitationId === 'string') request.elicitationId = p.elicitationId;

  const abort = new AbortController();
  s.elicitations.set(key(msg.id), abort);
  const canAsk = mode === 'url' ? s.clientElicitation.url : s.clientElicitation.form;
  const outcome = await elicit(request, {
    hooks: s.hooks,
    input: hookInput(s),
    runContext: s.options.runContext?.(),
    signal: abort.signal,
    prompter: canAsk
      ? async (_req, ctx): Promise<ElicitationAnswer> => {
          // The client sees the server's request as it was sent.
          const r = await requestClient(s, 'elicitation/create', raw, ctx.signal);
          return { action: r.action as ElicitationAnswer['action'], content: r.content as ElicitationAnswer['content'] };
        }
      : undefined,
  });
  s.elicitations.delete(key(msg.id));
  s.options.onElicitation?.(request, outcome);
  for (const line of formatElicitationTrace(outcome)) s.log(`elicitation: ${line}`);
  if (abort.signal.aborted || s.closed) return; // cancelled by the server: no response
  const result: Record<string, unknown> = { action: outcome.action };
  if (outcome.action === 'accept' && outcome.content) result.content = outcome.content;
  void toServer(s, { jsonrpc: '2.0', id: msg.id, result });
}
