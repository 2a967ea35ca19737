/** A run as the console shows it, folded from the run's SSE events (POST /execute, GET /executions/{id}/stream). */
import type { InputField } from '@weft/catalog';

/** `cancelled`: cut short while it ran (the run cancelled, or a failure or a Response block ending what was in flight). */
export type BlockRunStatus = 'running' | 'done' | 'failed' | 'skipped' | 'cancelled';
export type RunStatus = 'starting' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface TokenCount {
  prompt?: number;
  completion?: number;
  total?: number;
}

/** One try of a retried block's call: its number, start, duration and (for a failed try) error. */
export interface AttemptEntry {
  attempt: number;
  /** Which of the block's model calls the try belongs to (an agent's calls are tried one by one), from 1. */
  call?: number;
  /** For a try of an agent's tool call: the tool's name, and the call's place in the agent's tool calls (from 1). */
  tool?: string;
  toolCall?: number;
  startedAt?: string;
  durationMs?: number;
  error?: string;
}

/** One block's entry in the console: one per block and loop iteration / parallel branch. */
export interface BlockEntry {
  key: string;
  blockId: string;
  blockName: string;
  blockType: string;
  status: BlockRunStatus;
  startedAt?: string;
  durationMs?: number;
  input?: unknown;
  output?: unknown;
  error?: string;
  /** Tries of the block's call, and each one when it was retried. */
  attempts?: number;
  attemptLog?: AttemptEntry[];
  tokens?: TokenCount;
  cost?: { total?: number };
  /** Model tokens streamed so far, before the block's output arrives. */
  streamed: string;
  /** Where each numbered chunk's text starts in `streamed` ([seq, offset], seq increasing): a restart cuts at its `fromSeq`. */
  streamMarks?: ReadonlyArray<readonly [number, number]>;
  /** Tool calls the model made while streaming, by id, with their last state. */
  toolCalls: Array<{ id: string; name: string; state: string }>;
  iteration?: string;
  /** A rerun took the block's outcome from the run it reran (its log says `reused: true`): it did not run again. */
  reused?: boolean;
  /** The warning the block's output carries (a model answer cut off at the max tokens limit: it is incomplete). */
  warning?: string;
}

export interface RunView {
  executionId: string | null;
  status: RunStatus;
  entries: BlockEntry[];
  output?: unknown;
  error?: string;
  durationMs?: number;
  /** The last numbered event folded in: a reader that reconnects resumes after it. */
  lastSeq: number;
}

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

export const emptyRun = (): RunView => ({ executionId: null, status: 'starting', entries: [], lastSeq: 0 });

/**
 * Splits an SSE byte stream's text into messages; answers the messages complete so far and the
 * unfinished rest to prepend to the next piece.
 */
export function parseSse(buffer: string): { messages: SseMessage[]; rest: string } {
  const messages: SseMessage[] = [];
  const text = buffer.replace(/\r\n/g, '\n');
  const parts = text.split('\n\n');
  const rest = parts.pop() ?? '';
  for (const part of parts) {
    let event = 'message';
    const data: string[] = [];
    let id: string | undefined;
    for (const line of part.split('\n')) {
      if (line.startsWith(':')) continue;
      const at = line.indexOf(':');
      const field = at < 0 ? line : line.slice(0, at);
      const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (data.length > 0) messages.push({ event, data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
  }
  return { messages, rest };
}

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) && v.every((n) => typeof n === 'number') && v.length > 0 ? (v as number[]) : undefined);

/** A block's key in the console: its id, plus the loop iteration and parallel branch it ran in. */
export function entryKey(d: Record<string, unknown>): string {
  const loop = list(d.loopIteration);
  const branch = list(d.parallelBranch);
  return `${String(d.blockId)}${loop ? `@i${loop.join('.')}` : ''}${branch ? `@b${branch.join('.')}` : ''}`;
}

function iterationLabel(d: Record<string, unknown>): string | undefined {
  const loop = list(d.loopIteration);
  const branch = list(d.parallelBranch);
  const parts = [...(loop ? [`iteration ${loop.map((n) => n + 1).join('.')}`] : []), ...(branch ? [`branch ${branch.map((n) => n + 1).join('.')}`] : [])];
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function upsert(view: RunView, key: string, make: () => BlockEntry, change: (e: BlockEntry) => BlockEntry): RunView {
  const at = view.entries.findIndex((e) => e.key === key);
  const entries = [...view.entries];
  if (at < 0) entries.push(change(make()));
  else entries[at] = change(entries[at] as BlockEntry);
  return { ...view, entries };
}

const fresh = (d: Record<string, unknown>, key: string): BlockEntry => ({
  key,
  blockId: String(d.blockId),
  blockName: text(d.blockName) ?? String(d.blockId),
  blockType: text(d.blockType) ?? '',
  status: 'running',
  streamed: '',
  toolCalls: [],
  iteration: iterationLabel(d),
});

/** The tries a log lists (`attemptLog`), each as the console shows it; undefined without any. */
function attemptsOf(value: unknown): AttemptEntry[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const tries = value.flatMap((t: unknown, i): AttemptEntry[] => {
    if (typeof t !== 'object' || t === null) return [];
    const r = t as Record<string, unknown>;
    const startedAt = text(r.startedAt);
    const durationMs = num(r.durationMs);
    const error = text(r.error);
    const call = num(r.call);
    const tool = text(r.tool);
    const toolCall = num(r.toolCall);
    return [
      {
        attempt: num(r.attempt) ?? i + 1,
        ...(call !== undefined ? { call } : {}),
        ...(tool !== undefined ? { tool } : {}),
        ...(toolCall !== undefined ? { toolCall } : {}),
        ...(startedAt !== undefined ? { startedAt } : {}),
        ...(durationMs !== undefined ? { durationMs } : {}),
        ...(error !== undefined ? { error } : {}),
      },
    ];
  });
  return tries.length > 0 ? tries : undefined;
}

/**
 * How the console names a try: 'Model call 3, try 2' or 'Tool call search_web, try 2' for an agent's
 * calls (with the tool call's number when the block retried more than one call of that tool), else 'Try 2'.
 */
export function attemptLabel(t: AttemptEntry, all: readonly AttemptEntry[]): string {
  if (t.tool !== undefined) {
    const shared = all.some((o) => o.tool === t.tool && o.toolCall !== t.toolCall);
    return `Tool call ${t.tool}${shared && t.toolCall !== undefined ? ` #${t.toolCall}` : ''}, try ${t.attempt}`;
  }
  return t.call !== undefined ? `Model call ${t.call}, try ${t.attempt}` : `Try ${t.attempt}`;
}

/** A try's list key: tries of different calls share numbers. */
export function attemptKey(t: AttemptEntry): string {
  return `${t.tool !== undefined ? `tool-${t.toolCall ?? t.tool}` : `model-${t.call ?? 0}`}-${t.attempt}`;
}

/** How the console names a tool call the agent's loop never ran (see settled). */
export const TOOL_NOT_RUN = 'not run';

/**
 * A finished block's tool calls: one still `detecting` was named by the model but never run by the
 * loop (a Cerebras repeat it skips, a call past the 10-iteration cap), so it reads as not run
 * rather than waiting forever.
 */
function settled(calls: BlockEntry['toolCalls']): BlockEntry['toolCalls'] {
  return calls.some((c) => c.state === 'detecting') ? calls.map((c) => (c.state === 'detecting' ? { ...c, state: TOOL_NOT_RUN } : c)) : calls;
}

/** A block's log (a block:completed / block:error event, or an entry of a stored execution's logs, finished or still running) as a console entry. */
function finished(entry: BlockEntry, d: Record<string, unknown>): BlockEntry {
  const skipped = d.skipped === true;
  // A live block event says `cancelled: true`; a stored execution's log says `status: 'cancelled'`.
  const cancelled = d.cancelled === true || d.status === 'cancelled';
  // A stored execution still going lists its blocks still running (`status: 'running'`, no success yet).
  const running = d.running === true || d.status === 'running';
  return {
    ...entry,
    blockName: text(d.blockName) ?? entry.blockName,
    blockType: text(d.blockType) ?? entry.blockType,
    status: skipped ? 'skipped' : cancelled ? 'cancelled' : running ? 'running' : d.success === false ? 'failed' : 'done',
    toolCalls: running ? entry.toolCalls : settled(entry.toolCalls),
    startedAt: text(d.startedAt) ?? entry.startedAt,
    durationMs: num(d.durationMs) ?? num(d.duration),
    input: d.input,
    output: d.output,
    error: text(d.error),
    attempts: num(d.attempts),
    attemptLog: attemptsOf(d.attemptLog),
    tokens: typeof d.tokens === 'object' && d.tokens !== null ? (d.tokens as TokenCount) : undefined,
    cost: typeof d.cost === 'object' && d.cost !== null ? (d.cost as { total?: number }) : undefined,
    reused: d.reused === true ? true : undefined,
    warning: outputWarning(d.output),
  };
}

/** The `warning` of a block's output (an object's own text field; a model block's answer cut off at the max tokens limit). */
export function outputWarning(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output) || !Object.hasOwn(output, 'warning')) return undefined;
  const warning = text((output as { warning?: unknown }).warning);
  return warning ? warning : undefined;
}

/**
 * A block's streamed text with one more chunk (`RunStreamChunk`): a chunk numbered at or below one
 * already folded in is a repeat and changes nothing; a chunk with `restart: {fromSeq}` voids the
 * text of the chunks numbered from `fromSeq` on (a retried model call whose answer differs from what
 * its failed try had sent) and its own text stands in their place.
 */
function streamedWith(entry: BlockEntry, d: Record<string, unknown>): Pick<BlockEntry, 'streamed' | 'streamMarks'> {
  const chunk = text(d.chunk) ?? '';
  const seq = num(d.seq);
  if (seq === undefined) return { streamed: entry.streamed + chunk, streamMarks: entry.streamMarks };
  let marks = entry.streamMarks ?? [];
  let streamed = entry.streamed;
  const fromSeq = num((d.restart as { fromSeq?: unknown } | undefined)?.fromSeq);
  if (fromSeq !== undefined) {
    const cut = marks.findIndex(([s]) => s >= fromSeq);
    if (cut >= 0) {
      streamed = streamed.slice(0, (marks[cut] as readonly [number, number])[1]);
      marks = marks.slice(0, cut);
    }
  } else if (marks.length > 0 && seq <= (marks[marks.length - 1] as readonly [number, number])[0]) {
    return { streamed, streamMarks: marks };
  }
  return { streamed: streamed + chunk, streamMarks: [...marks, [seq, streamed.length]] };
}

const STATUS: Record<string, RunStatus> = { 'execution:completed': 'succeeded', 'execution:failed': 'failed', 'execution:cancelled': 'cancelled' };

/** Folds one SSE message into the run. Unknown events and data that do not parse are left out. */
export function applyMessage(view: RunView, message: SseMessage): RunView {
  let d: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(message.data);
    if (typeof parsed !== 'object' || parsed === null) return view;
    d = parsed as Record<string, unknown>;
  } catch {
    return view;
  }
  const seq = message.id !== undefined && /^\d+$/.test(message.id) ? Number(message.id) : undefined;
  if (seq !== undefined && seq <= view.lastSeq) return view;
  const next: RunView = seq !== undefined ? { ...view, lastSeq: seq } : view;
  switch (message.event) {
    case 'execution:started':
      return { ...next, executionId: text(d.executionId) ?? next.executionId, status: 'running' };
    case 'block:started': {
      const key = entryKey(d);
      return upsert(next, key, () => fresh(d, key), (e) => ({ ...e, status: 'running', startedAt: text(d.startedAt) ?? e.startedAt }));
    }
    case 'block:completed':
    case 'block:error': {
      const key = entryKey(d);
      return upsert(next, key, () => fresh(d, key), (e) => finished(e, d));
    }
    case 'stream:chunk': {
      if (typeof d.blockId !== 'string') return next;
      // Chunks arrive while a block runs; they go to its latest entry.
      const at = next.entries.map((e) => e.blockId).lastIndexOf(d.blockId);
      if (at < 0) return next;
      const entries = [...next.entries];
      const entry = entries[at] as BlockEntry;
      const call = d.toolCall as { id?: unknown; name?: unknown; state?: unknown } | undefined;
      const calls =
        call && typeof call.id === 'string'
          ? [...entry.toolCalls.filter((c) => c.id !== call.id), { id: call.id, name: String(call.name ?? ''), state: String(call.state ?? '') }]
          : entry.toolCalls;
      // A chunk of the block's own that arrives after its end (chunks and block events travel apart) is settled too.
      const toolCalls = entry.status === 'running' ? calls : settled(calls);
      entries[at] = { ...entry, ...streamedWith(entry, d), toolCalls };
      return { ...next, entries };
    }
    case 'execution:completed':
    case 'execution:failed':
    case 'execution:cancelled': {
      const metadata = (d.metadata ?? {}) as Record<string, unknown>;
      const status = STATUS[message.event] ?? 'failed';
      return {
        ...next,
        executionId: text(d.executionId) ?? next.executionId,
        status,
        output: workflowOutput(status, d.output),
        error: text(d.error),
        durationMs: num(metadata.duration) ?? num(d.durationMs),
        // A block still marked running when the run ended was cut short (the run log says so too).
        entries: next.entries.map((e) => (e.status === 'running' ? { ...e, status: 'cancelled', toolCalls: settled(e.toolCalls) } : e)),
      };
    }
    case 'error':
      return { ...next, status: 'failed', error: text(d.error) ?? 'The run stream failed' };
    default:
      return next;
  }
}

/**
 * A run's output as the workflow's: only a run that succeeded has one. The runner keeps the last finished
 * block's output for a failed or cancelled run too (the starter's `{input: {}}` when the first block after
 * it failed); shown as the workflow's output it would mislead, and the run's error says what happened.
 */
function workflowOutput(status: RunStatus, output: unknown): unknown {
  return status === 'succeeded' ? output : undefined;
}

/** A stored execution (GET /api/executions/{id}) as the console shows it. */
export function fromExecution(e: { executionId: string; status: string; output?: unknown; error?: string | null; durationMs?: number | null; logs?: unknown }): RunView {
  const logs = Array.isArray(e.logs) ? (e.logs as Record<string, unknown>[]) : [];
  const status: RunStatus = e.status === 'running' || e.status === 'succeeded' || e.status === 'failed' || e.status === 'cancelled' ? e.status : 'failed';
  return {
    executionId: e.executionId,
    status,
    entries: logs.filter((l) => typeof l.blockId === 'string').map((l) => finished(fresh(l, entryKey(l)), l)),
    output: workflowOutput(status, e.output),
    error: e.error ?? undefined,
    durationMs: e.durationMs ?? undefined,
    lastSeq: 0,
  };
}

/** Each block's state on the canvas: the last entry of each block wins (a block in a loop shows its latest iteration). */
export function blockStatuses(view: RunView): Map<string, BlockRunStatus> {
  const out = new Map<string, BlockRunStatus>();
  for (const e of view.entries) out.set(e.blockId, e.status);
  return out;
}

/** Tokens and cost over the whole run. */
export function totals(view: RunView): { tokens: number; cost: number } {
  let tokens = 0;
  let cost = 0;
  for (const e of view.entries) {
    tokens += e.tokens?.total ?? (e.tokens?.prompt ?? 0) + (e.tokens?.completion ?? 0);
    cost += e.cost?.total ?? 0;
  }
  return { tokens, cost };
}

/** The starter's input fields (its inputFormat), when the run asks for them. */
export { inputFormatFields as inputFields, type InputField } from '@weft/catalog';

/** The run's input from the fields as typed; a field whose text is not of its type answers an error naming it. */
export function inputFromFields(fields: readonly InputField[], values: Record<string, string>): { input: Record<string, unknown> } | { error: string } {
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name] ?? '';
    if (field.type === 'number') {
      if (raw.trim() === '') continue;
      const n = Number(raw);
      if (!Number.isFinite(n)) return { error: `${field.name} must be a number` };
      input[field.name] = n;
    } else if (field.type === 'boolean') {
      input[field.name] = raw === 'true';
    } else if (field.type === 'object' || field.type === 'array') {
      if (raw.trim() === '') continue;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (field.type === 'array' ? !Array.isArray(parsed) : typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: `${field.name} must be a JSON ${field.type}` };
        input[field.name] = parsed;
      } catch {
        return { error: `${field.name} must be a JSON ${field.type}` };
      }
    } else {
      input[field.name] = raw;
    }
  }
  return { input };
}
