/**
 * A fingerprint of what a workflow would run, so a deployment can tell whether the draft differs
 * from it. Layout is left out: a block's position, its measured `height`, `isWide`,
 * `horizontalHandles`, and in its data the drawn size (`width`, `height`, also a container's) and
 * `extent` (a drag constraint; the parent itself is `parentId`). Nothing of these reaches a run.
 * Everything else counts: type, name, enabled, advancedMode, sub-block values, outputs, data
 * (parent, loop and parallel settings); edges without their ids and in any order; loops and
 * parallels with their nodes in any order; workflow variables (name, type, value: what a
 * `<variable.x>` reads) in any order. No variables hash as before they counted, so a fingerprint
 * stored then still matches a graph without variables.
 *
 * Cheap per edit: an edit replaces one block object and keeps the others, so each block's hash is
 * cached by object identity and block hashes are summed (order-independent); edges, loops and
 * parallels are cached by the identity of their array or record.
 */

/** A graph as the fingerprint reads it: the editor's state, or the same parsed from JSON. */
type FingerprintInput = {
  blocks: Readonly<Record<string, object>>;
  edges: readonly object[];
  loops?: Readonly<Record<string, object>>;
  parallels?: Readonly<Record<string, object>>;
  variables?: Readonly<Record<string, object>>;
};

/** A 64-bit hash as two unsigned 32-bit halves. */
type Hash = readonly [number, number];

const BLOCK_LAYOUT: ReadonlySet<string> = new Set(['position', 'height', 'isWide', 'horizontalHandles']);
const DATA_LAYOUT: ReadonlySet<string> = new Set(['width', 'height', 'extent']);
const EDGE_IDENTITY: ReadonlySet<string> = new Set(['id']);
const NOTHING: ReadonlySet<string> = new Set();

const blockHashes = new WeakMap<object, Hash>();
const partHashes = new WeakMap<object, Hash>();
const blockSums = new WeakMap<object, readonly [number, number, number]>();
let blocksHashed = 0;

/** cyrb53 (public domain, bryc): a fast non-cryptographic string hash, both 32-bit halves kept. */
function cyrb(text: string): Hash {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys in code-unit order (as Array#sort orders strings); most records are already sorted. */
function sortedKeys(value: Record<string, unknown>): string[] {
  const keys = Object.keys(value);
  for (let i = 1; i < keys.length; i++) {
    if ((keys[i - 1] ?? '') > (keys[i] ?? '')) return keys.sort();
  }
  return keys;
}

/**
 * JSON with sorted keys, written as JSON.stringify would (undefined keys left out, in arrays null),
 * so a state and the same state after a trip through JSON or jsonb (which reorders keys) hash
 * alike. `skip` names top-level keys to leave out; `dataSkip` those of a top-level `data` object.
 */
function canonical(value: unknown, skip: ReadonlySet<string> = NOTHING, dataSkip: ReadonlySet<string> = NOTHING): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + (canonical(value[i]) ?? 'null');
    return `${out}]`;
  }
  if (!isRecord(value)) return undefined;
  let out = '{';
  for (const key of sortedKeys(value)) {
    if (skip.has(key)) continue;
    const text = key === 'data' && dataSkip !== NOTHING ? canonical(value[key], dataSkip) : canonical(value[key]);
    if (text !== undefined) out += (out.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + text;
  }
  return `${out}}`;
}

/** Adds a hash, modulo 2^32 per half; a third slot counts. */
function add(sum: [number, number] | [number, number, number], hash: Hash): void {
  sum[0] = (sum[0] + hash[0]) >>> 0;
  sum[1] = (sum[1] + hash[1]) >>> 0;
  if (sum.length === 3) sum[2] += 1;
}

function blockHash(block: object): Hash {
  const known = blockHashes.get(block);
  if (known !== undefined) return known;
  blocksHashed++;
  const hash = cyrb(canonical(block, BLOCK_LAYOUT, DATA_LAYOUT) ?? '');
  blockHashes.set(block, hash);
  return hash;
}

/** The sum of the blocks' hashes (order-independent) with their count, cached by the record's identity. */
function blocksHash(blocks: Readonly<Record<string, object>>): readonly [number, number, number] {
  const known = blockSums.get(blocks);
  if (known !== undefined) return known;
  const sum: [number, number, number] = [0, 0, 0];
  // for…in: a workflow's blocks object is a dictionary, which Object.values copies about twice as slowly.
  for (const id in blocks) {
    const block = blocks[id];
    if (block !== undefined) add(sum, blockHash(block));
  }
  blockSums.set(blocks, sum);
  return sum;
}

/** The order-independent hash of a list of parts (edges, or loops or parallels), cached by identity. */
function setHash(owner: object, items: Iterable<unknown>, one: (item: unknown) => string): Hash {
  const known = partHashes.get(owner);
  if (known !== undefined) return known;
  const sum: [number, number] = [0, 0];
  let count = 0;
  for (const item of items) {
    add(sum, cyrb(one(item)));
    count++;
  }
  const hash = cyrb(`${count}:${sum[0]}:${sum[1]}`);
  partHashes.set(owner, hash);
  return hash;
}

/** A loop or parallel with its nodes sorted: their order follows the blocks record, not the user. */
function subflowText(item: unknown): string {
  if (!isRecord(item)) return canonical(item) ?? '';
  const nodes = Array.isArray(item['nodes']) ? [...item['nodes']].map(String).sort() : item['nodes'];
  return canonical({ ...item, nodes }) ?? '';
}

/** A variable as a run reads it: its id and a derived validationError do not change what runs. */
function variableText(item: unknown): string {
  if (!isRecord(item)) return canonical(item) ?? '';
  return canonical({ name: item['name'], type: item['type'], value: item['value'] }) ?? '';
}

/** A deterministic hash of what the workflow would run (everything but layout); see the file's comment. */
function graphFingerprint(graph: FingerprintInput): string {
  const blocks = blocksHash(graph.blocks);
  const edges = setHash(graph.edges, graph.edges, (edge) => canonical(edge, EDGE_IDENTITY) ?? '');
  const loopRecord = graph.loops ?? {};
  const parallelRecord = graph.parallels ?? {};
  const loops = setHash(loopRecord, Object.values(loopRecord), subflowText);
  const parallels = setHash(parallelRecord, Object.values(parallelRecord), subflowText);
  const variableRecord = graph.variables ?? {};
  const variableList = Object.values(variableRecord);
  const variables = variableList.length === 0 ? '' : `|${setHash(variableRecord, variableList, variableText).join(':')}`;
  const [h1, h2] = cyrb(`${blocks.join(':')}|${edges.join(':')}|${loops.join(':')}|${parallels.join(':')}${variables}`);
  return h2.toString(16).padStart(8, '0') + h1.toString(16).padStart(8, '0');
}

/** How many blocks have been hashed (not answered from the cache) so far; for tests. */
function blocksHashedCount(): number {
  return blocksHashed;
}

export { graphFingerprint, blocksHashedCount };
export type { FingerprintInput };
