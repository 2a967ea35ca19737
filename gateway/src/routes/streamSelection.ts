import { AppError } from '@weft/platform';
import { referenceName } from '@weft/catalog';

/** The blocks of a state, as far as choosing what streams needs them. */
export type NamedBlocks = Record<string, { id: string; name: string; type: string }>;

/**
 * `selectedOutputs` of a run request (Sim's name for it): the blocks whose model tokens a streamed run
 * sends as `stream:chunk`. Each entry names a block by id, by name ("Agent 1") or as references write
 * it ("agent1"), optionally with the output path after a dot or an underscore (`agent1.content`,
 * `<blockId>_content`: every path of a block streams the same tokens). Absent: every model block.
 */
export function selectedOutputsOf(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('selectedOutputs' in body)) return undefined;
  const given = (body as { selectedOutputs?: unknown }).selectedOutputs;
  if (given === undefined || given === null) return undefined;
  if (!Array.isArray(given) || given.some((e) => typeof e !== 'string' || e.trim() === '')) {
    throw new AppError('validation', 'selectedOutputs must be a list of block ids or names');
  }
  return given.map((e: string) => e.trim());
}

/** The block an entry names, trying the whole entry first, then without its output path. */
function blockOf(entry: string, blocks: NamedBlocks): string | undefined {
  const candidates = [entry];
  for (const sep of ['.', '_']) {
    const at = entry.indexOf(sep);
    if (at > 0) candidates.push(entry.slice(0, at));
  }
  for (const candidate of candidates) {
    if (blocks[candidate]) return candidate;
    const wanted = referenceName(candidate);
    const named = Object.values(blocks).find((b) => referenceName(b.name) === wanted);
    if (named) return named.id;
  }
  return undefined;
}

/**
 * The ids of the selected blocks; an entry that names no block of `blocks` is a validation error
 * naming it and `where` those blocks are (a rerun's: the workflow its execution ran).
 */
export function resolveSelectedOutputs(entries: readonly string[], blocks: NamedBlocks, where = 'this workflow'): Set<string> {
  const ids = new Set<string>();
  const unknown: string[] = [];
  for (const entry of entries) {
    const id = blockOf(entry, blocks);
    if (id) ids.add(id);
    else unknown.push(entry);
  }
  if (unknown.length > 0) throw new AppError('validation', `selectedOutputs: no block ${unknown.map((u) => `"${u.slice(0, 80)}"`).join(', ')} in ${where}`);
  return ids;
}

/** Whether a `stream:chunk` message (JSON with its `blockId`) is of a selected block; every chunk when nothing was selected. */
export function chunkSelected(chunkJson: string, selected: ReadonlySet<string> | undefined): boolean {
  if (!selected) return true;
  try {
    const { blockId } = JSON.parse(chunkJson) as { blockId?: unknown };
    return typeof blockId === 'string' && selected.has(blockId);
  } catch {
    return false;
  }
}
