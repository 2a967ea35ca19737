import { getBlock } from '../blocks/registry.js';
import { codeOfField, referenceShape, scanCode, WRITTEN_REFERENCE_SOURCE } from '../codeReferences.js';
import { referenceName } from '../referenceName.js';
import { isBlank } from '../paramValues.js';
import { fieldOfMessage, validateWrittenParams } from '../validation/registry.js';
import { visibleSubBlocks } from '../visibility.js';
import { scheduleTriggers, webhookPathError, webhookTriggers, type StateBlock } from './deploymentTriggers.js';
import { toTriggerSchedule } from './scheduleSpec.js';
import { inputFormatFields } from './inputFormat.js';
import { containerPlan, containerProblem } from './containerChecks.js';
import { entryReadings, flowGraph, upstreamOf, type EntryReading, type FlowGraph } from './upstream.js';
import { graphProblems } from './graphProblems.js';

/**
 * One reason a workflow cannot be deployed, naming the block and the field. A problem of the whole
 * workflow (no starter block) has no block: `blockId` and `blockName` are absent (and so absent from
 * the JSON a refused deploy answers).
 */
export interface DeployProblem {
  blockId?: string;
  blockName?: string;
  field: string;
  message: string;
}

type CheckedBlock = StateBlock;

/** The message for a reference (`<nosuch.result>`) to a block the workflow does not have: the deploy check's, which the runner gives too when code names one. */
export function unknownBlockReference(reference: string): string {
  return `Reference ${reference} names no block`;
}

/**
 * What the check reads of a workflow state (as JSON: blocks that are not blocks are left out). The
 * loop and parallel lists place blocks in containers, and hold their settings, where a block's
 * `data` does not (`containerParents`, `containerPlan`), as the runner reads them.
 */
export interface DeployableState {
  blocks: Record<string, unknown>;
  edges: ReadonlyArray<{ source?: unknown; target?: unknown }>;
  variables?: Record<string, { name: string }>;
  loops?: Record<string, unknown>;
  parallels?: Record<string, unknown>;
}

type Graph = FlowGraph;

const CONTAINERS = new Set(['loop', 'parallel']);
/** Fields a container exposes to the blocks inside it (`<loop.index>`, `<parallel.currentItem>`…). */
const CONTAINER_FIELDS = new Set(['index', 'currentItem', 'items']);
/**
 * `<name.path>` as the runner finds it in a value that is no code: a block name (any characters but
 * `<`, `>`, `.` and white space, read lowercased without spaces: `<agent-2.content>`, `<résumé.x>`)
 * or start/variable/loop/parallel, then a path.
 */
const REFERENCE = new RegExp(WRITTEN_REFERENCE_SOURCE, 'g');
/**
 * A name no block has that is an address, not a reference: `<a@b.example>`, `<https://x.example>`,
 * Slack's `<https://x.example|label>`, `<mailto:…>`. The runner leaves it as written; refusing it would
 * refuse mail and chat text. Any other name of no block is refused (`<agent-2.content>`).
 */
const ADDRESS_NAME = /[@:/]/;

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

function parentOf(state: Graph, block: CheckedBlock | undefined): string | undefined {
  return block ? state.parents.get(block.id) : undefined;
}

/** Whether the block never runs for being switched off: it, or a container around it, is disabled. */
function switchedOff(state: Graph, block: CheckedBlock): boolean {
  for (let cur: CheckedBlock | undefined = block; cur !== undefined; cur = state.blocks[parentOf(state, cur) ?? '']) {
    if (cur.enabled === false) return true;
  }
  return false;
}

/**
 * Blocks the run skips for a disabled block: the switched-off ones, and every block all of whose
 * incoming edges come from skipped blocks (the runner skips a block none of whose edges fired).
 */
function skippedBlocks(state: Graph): Set<string> {
  const skipped = new Set(Object.values(state.blocks).filter((b) => switchedOff(state, b)).map((b) => b.id));
  const sources = new Map<string, string[]>();
  for (const e of state.edges) sources.set(e.target, [...(sources.get(e.target) ?? []), e.source]);
  for (let grew = skipped.size > 0; grew; ) {
    grew = false;
    for (const [target, from] of sources) {
      if (!skipped.has(target) && from.every((f) => skipped.has(f))) {
        skipped.add(target);
        grew = true;
      }
    }
  }
  return skipped;
}

function enclosing(state: Graph, block: CheckedBlock, type: string): boolean {
  for (let p = parentOf(state, block); p !== undefined; p = parentOf(state, state.blocks[p])) {
    if (state.blocks[p]?.type === type) return true;
  }
  return false;
}

/** What a reference is checked against: the workflow around the block that holds it. */
interface ReferenceContext {
  state: Graph;
  block: CheckedBlock;
  byName: Map<string, CheckedBlock>;
  skipped: ReadonlySet<string>;
  variables: Set<string>;
  startFields: Set<string>;
  upstream: () => Set<string>;
  /** Upstream by every edge, disabled blocks' too: where the runner looks for what a name means. */
  ancestors: () => Set<string>;
  /** The runs that reach the block, by the block each starts at (`entryReadings`). */
  reading: () => EntryReading;
}

/** A reference to what no run started at `entry` has run when it reaches the block (see `entryReadings`). */
function notRunOnEntry(state: Graph, ref: string, entry: string): string {
  return `Reference ${ref} points at a block that does not run before this one in runs started at ${state.blocks[entry]?.name ?? entry}`;
}

/**
 * The problem with one `<head.path>`, or undefined. `inString`: it stands inside a string literal
 * or a template literal's text of code, where the runner runs a name that is no block's as text.
 */
function referenceProblem({ state, block, byName, skipped, variables, startFields, upstream, ancestors, reading }: ReferenceContext, head: string, path: string, inString = false): string | undefined {
  const ref = `<${head}.${path}>`;
  const first = path.split(/[.[]/)[0] ?? '';
  switch (head.toLowerCase()) {
    case 'start': {
      if (!startFields.has(first)) return `Reference ${ref} does not exist: the start block offers ${[...startFields].map((f) => `<start.${f}>`).join(', ')}`;
      // The runner reads `<start.…>` as the first of a block named start, the starter and the block the run started at
      // that is upstream by any edge (a disabled block's too), and fails the block when that one has not run.
      const missing = reading().startMissingOn(ancestors());
      return missing === undefined ? undefined : notRunOnEntry(state, ref, missing);
    }
    case 'variable':
      return variables.has(referenceName(path)) ? undefined : `Reference ${ref} names no workflow variable`;
    case 'loop':
    case 'parallel': {
      const kind = head.toLowerCase();
      if (!enclosing(state, block, kind)) return `Reference ${ref} is only available inside a ${kind}`;
      return CONTAINER_FIELDS.has(first) ? undefined : `Reference ${ref} does not exist: a ${kind} offers index, currentItem and items`;
    }
    default: {
      const target = byName.get(referenceName(head));
      if (!target) return inString || ADDRESS_NAME.test(head) ? undefined : unknownBlockReference(ref);
      if (target.id === block.id) return `Reference ${ref} points at the block itself`;
      // A starter under its own name gives only its `input` (the runner reads an input field as `<start.x>` alone).
      if (target.type === 'starter' && first !== 'input') return `Reference ${ref} reads nothing: the start block ${target.name} gives only <${head}.input>; its input field ${first} reads as <start.${first}>`;
      // The run skips a disabled block (and what is inside a disabled container, and what only such blocks lead to): it has no output.
      if (switchedOff(state, target)) return `Reference ${ref} points at ${target.name}, which is disabled and does not run`;
      if (skipped.has(target.id)) return `Reference ${ref} points at ${target.name}, which does not run: only disabled blocks lead to it`;
      if (!upstream().has(target.id)) return `Reference ${ref} points at a block that does not run before this one`;
      // Upstream by edges, yet a run that reaches this block may start where it does not run (a webhook block the starter does not lead to).
      const missing = reading().missingOn(target.id);
      return missing === undefined ? undefined : notRunOnEntry(state, ref, missing);
    }
  }
}

/**
 * Whether the runner takes a token in code as a reference (so its characters are not read as code):
 * a block's name, start, a variable (or it fails the block), `<loop.…>`/`<parallel.…>` inside one.
 */
function runnerTakes(ctx: ReferenceContext, token: RegExpExecArray): boolean {
  const root = token[1];
  if (root === undefined) return false;
  const name = referenceName(root);
  if (name === 'start' || name === 'variable' || ctx.byName.has(name)) return true;
  return (name === 'loop' || name === 'parallel') && enclosing(ctx.state, ctx.block, name);
}

/**
 * The problems of the references in code, read as the runner reads it (`scanCode`): none in
 * comments, and a name that is no block's only outside strings (inside one it is text). A name of
 * no block is read as names are written (`referenceShape`'s `written`): `<agent-2.content>` outside
 * strings is refused as naming no block, where the run would fail the code as a syntax error.
 */
function codeReferenceProblems(ctx: ReferenceContext, code: string): string[] {
  const problems: string[] = [];
  scanCode(code, (token, place) => {
    const takes = runnerTakes(ctx, token);
    // A token the runner takes is checked whatever its name (`<agent-2.content>` of a block so named).
    const shape = referenceShape(token, 'written') ?? (takes && token[2] ? { head: token[1] ?? '', path: token[2].slice(1) } : undefined);
    const problem = shape && referenceProblem(ctx, shape.head, shape.path, place !== 'code');
    if (problem) problems.push(problem);
    return takes ? token[0] : undefined;
  });
  return problems;
}

/**
 * What `<start.x>` may read: `input` always; a webhook run's `method`, `headers`, `query` and `body`
 * (its input's fields, which the runner reads as the start block's); the fields of the starter's
 * input format.
 */
function startFieldsOf(starter: CheckedBlock | undefined, webhook: boolean): Set<string> {
  const fields = new Set(['input']);
  if (webhook) for (const f of ['method', 'headers', 'query', 'body']) fields.add(f);
  for (const { name } of inputFormatFields(starter?.subBlocks?.inputFormat?.value)) fields.add(name);
  return fields;
}

/** A field id for a validator's message: the visible field it names, else "parameters". */
/**
 * Everything that keeps a workflow from being deployed (empty when it can be): each enabled block's
 * parameters (`validateBlockParams`), required visible fields filled, every `<block.path>` reference
 * to a block upstream that runs (not disabled, nor only led to by disabled blocks) in every run that
 * reaches the block (`entryReadings`: a webhook block the starter does not lead to starts runs of its
 * own, which run no starter), `<variable.x>`
 * to a workflow variable, `<start.input…>`, `<loop.…>` and `<parallel.…>` only inside their
 * container, no empty container, a container's count in 1..50 or its collection a JSON array or
 * object of at most 50 entries (or a reference, checked as any), and the trigger (webhook path,
 * schedule fields) usable. Blocks the run skips are not checked. `now` fixes the schedule's
 * timezone offset. Function and condition code is read as the runner reads it (`scanCode`): no
 * reference in comments, and a name that is no block's refused only outside strings.
 */
export function checkDeployable(given: DeployableState, now: Date = new Date()): DeployProblem[] {
  const state: Graph = flowGraph(given);
  const readingOf = entryReadings(state);
  // What every run refuses (no starter, a cycle outside a loop), as the runner words it.
  const problems: DeployProblem[] = graphProblems(given);
  // A block the run skips is not checked: it never runs.
  const skipped = skippedBlocks(state);
  const blocks = Object.values(state.blocks).filter((b) => !skipped.has(b.id));
  const byName = new Map(Object.values(state.blocks).map((b) => [referenceName(b.name), b]));
  const variables = new Set(Object.values(given.variables ?? {}).map((v) => referenceName(v.name)));
  const add = (b: CheckedBlock, field: string, message: string) => problems.push({ blockId: b.id, blockName: b.name, field, message });
  const webhooks = webhookTriggers(state.blocks);
  const startFields = startFieldsOf(Object.values(state.blocks).find((b) => b.type === 'starter'), webhooks.length > 0);
  for (const block of blocks) {
    const values = Object.fromEntries(Object.entries(block.subBlocks ?? {}).map(([k, v]) => [k, v?.value]));
    let upstream: Set<string> | undefined;
    let ancestors: Set<string> | undefined;
    let reading: EntryReading | undefined;
    const ctx: ReferenceContext = {
      state, block, byName, skipped, variables, startFields,
      upstream: () => (upstream ??= upstreamOf(state, block.id, skipped)),
      ancestors: () => (ancestors ??= upstreamOf(state, block.id)),
      reading: () => (reading ??= readingOf(block.id)),
    };
    const checkReferences = (field: string, value: unknown) => {
      const code = codeOfField(block.type, getBlock(block.type)?.subBlocks.find((sub) => sub.id === field)?.type, value);
      if (code) {
        for (const c of code) for (const problem of codeReferenceProblems(ctx, c)) add(block, field, problem);
        return;
      }
      for (const s of strings(value)) {
        for (const m of s.matchAll(REFERENCE)) {
          const problem = referenceProblem(ctx, m[1] ?? '', m[2] ?? '');
          if (problem) add(block, field, problem);
        }
      }
    };
    if (CONTAINERS.has(block.type)) {
      if (!Object.values(state.blocks).some((b) => parentOf(state, b) === block.id)) add(block, 'nodes', `${block.type === 'loop' ? 'Loop' : 'Parallel'} ${block.name} is empty: put at least one block inside it`);
      const plan = containerPlan(block, given);
      if (plan.field === 'collection') checkReferences('collection', plan.value);
      const problem = containerProblem(block, plan);
      if (problem) add(block, plan.field, problem);
    } else {
      const config = getBlock(block.type);
      if (!config) {
        add(block, 'type', `Unknown block type: ${block.type}`);
        continue;
      }
      const visible = visibleSubBlocks(config, values, block.advancedMode ? 'advanced' : 'basic');
      const missing = new Set<string>();
      for (const sub of visible) {
        if (config.inputs[sub.id]?.required === true && isBlank(values[sub.id])) {
          missing.add(sub.id);
          add(block, sub.id, `${sub.title ?? sub.id} is required`);
        }
      }
      // A value that holds a reference or {{KEY}} is checked by the runner once it is resolved.
      const checked = validateWrittenParams(block.type, values);
      if (!checked.success && checked.error) {
        const field = fieldOfMessage(config, checked.error, values);
        if (!missing.has(field)) add(block, field, checked.error);
      }
    }
    for (const [field, v] of Object.entries(values)) checkReferences(field, v);
  }
  // Each webhook registers its own path: a usable one, and not one another webhook of this workflow has.
  const pathHolders = new Map<string, CheckedBlock>();
  for (const webhook of webhooks) {
    const block = state.blocks[webhook.blockId];
    if (!block) continue;
    const field = block.type === 'starter' ? 'webhookPath' : 'webhookConfig';
    const holder = pathHolders.get(webhook.path);
    const error = webhookPathError(webhook.path) ?? (holder ? `Webhook path "${webhook.path}" is already used by ${holder.name} in this workflow` : undefined);
    if (error) add(block, field, error);
    else pathHolders.set(webhook.path, block);
  }
  // Each schedule trigger becomes a Temporal Schedule of its own: every one must make a schedule.
  for (const trigger of scheduleTriggers(state.blocks)) {
    const converted = toTriggerSchedule(trigger.fields, now);
    const block = state.blocks[trigger.blockId];
    if (!converted.ok && block) for (const p of converted.problems) add(block, p.field, p.message);
  }
  return problems;
}
