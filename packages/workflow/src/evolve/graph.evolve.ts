import type { GraphEvent } from '../events.js';
import { applyValueChanges, graphWith, setValue, updateBlock, withBlock } from '../model/graph.js';
import { ownValue } from '../model/ownKeys.js';
import type { BlockData, WorkflowGraph } from '../model/state.js';

function withoutParent(data: BlockData): BlockData {
  const { parentId: _parentId, extent: _extent, ...rest } = data;
  return rest;
}

/** Apply an editing event to the graph; loops and parallels are derived again. */
function applyGraphEvent(graph: WorkflowGraph, event: GraphEvent): WorkflowGraph {
  switch (event.type) {
    case 'blockAdded':
    case 'blockDuplicated':
      return graphWith(withBlock(graph.blocks, event.block.id, event.block), graph.edges);
    case 'blockMoved':
      return updateBlock(graph, event.id, (block) => ({ ...block, position: event.position }));
    case 'blockResized':
      return updateBlock(graph, event.id, (block) => ({
        ...block,
        data: { ...block.data, width: event.width, height: event.height },
      }));
    case 'blockParentSet':
      return updateBlock(graph, event.id, (block) => ({
        ...block,
        data:
          event.parentId === null
            ? withoutParent(block.data)
            : { ...block.data, parentId: event.parentId, extent: event.extent ?? 'parent' },
      }));
    case 'blockRemoved': {
      const removed = new Set(event.blockIds);
      const blocks = Object.fromEntries(Object.entries(graph.blocks).filter(([id]) => !removed.has(id)));
      const edges = graph.edges.filter((edge) => !removed.has(edge.source) && !removed.has(edge.target));
      return graphWith(blocks, edges);
    }
    case 'edgeAdded':
      return { ...graph, edges: [...graph.edges, event.edge] };
    case 'edgeRemoved':
      return { ...graph, edges: graph.edges.filter((edge) => edge.id !== event.id) };
    case 'blockEnabledToggled':
      return updateBlock(graph, event.id, (block) => ({ ...block, enabled: event.enabled }));
    case 'blockHandlesToggled':
      return updateBlock(graph, event.id, (block) => ({ ...block, horizontalHandles: event.horizontalHandles }));
    case 'blockWideSet':
      return updateBlock(graph, event.id, (block) => ({ ...block, isWide: event.isWide }));
    case 'blockAdvancedModeSet':
      return updateBlock(graph, event.id, (block) => {
        const changed = { ...block, advancedMode: event.advancedMode };
        return event.clearedMemories ? setValue(changed, 'memories', null) : changed;
      });
    case 'blockRenamed':
      return applyValueChanges(
        updateBlock(graph, event.id, (block) => ({ ...block, name: event.name })),
        event.rewrites,
      );
    case 'subBlockValueSet':
      return updateBlock(graph, event.id, (block) => setValue(block, event.subBlockId, event.value, event.subBlockType));
    case 'subBlockValueSetAndCleared':
      return updateBlock(graph, event.id, (block) =>
        event.cleared.reduce((b, cleared) => setValue(b, cleared, ''), setValue(block, event.subBlockId, event.value, event.subBlockType)),
      );
    case 'loopUpdated':
      return updateBlock(graph, event.id, (block) => ({
        ...block,
        data: {
          ...block.data,
          ...(event.iterations === undefined ? {} : { count: event.iterations }),
          ...(event.loopType === undefined ? {} : { loopType: event.loopType }),
          ...(event.forEachItems === undefined ? {} : { collection: event.forEachItems }),
        },
      }));
    case 'parallelUpdated':
      return updateBlock(graph, event.id, (block) => ({
        ...block,
        data: {
          ...block.data,
          ...(event.count === undefined ? {} : { count: event.count }),
          ...(event.distribution === undefined ? {} : { collection: event.distribution }),
          ...(event.parallelType === undefined ? {} : { parallelType: event.parallelType }),
        },
      }));
    case 'workflowCleared':
      return graphWith({}, []);
    case 'yamlImported':
    case 'stateReplaced':
      return graphWith(event.blocks, event.edges);
    default: {
      // Exhaustive at compile time; at runtime an unknown type (from a newer Weft) changes nothing.
      const unknown: never = event;
      void unknown;
      return graph;
    }
  }
}

/** A sub-block id as a field title: 'systemPrompt' → 'System Prompt', 'response_format' → 'Response Format'. */
function fieldTitle(subBlockId: string): string {
  const words = subBlockId.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_-]+/).filter((word) => word !== '');
  return words.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`).join(' ');
}

/** 'Remove Agent 1', or 'Remove 3 blocks' when several are removed (what is nested in one removed counts with it). */
function removedLabel(before: WorkflowGraph, blockIds: readonly string[]): string {
  const removed = new Set(blockIds);
  const roots = blockIds.filter((id) => !removed.has(ownValue(before.blocks, id)?.data.parentId ?? ''));
  const only = roots.length === 1 ? ownValue(before.blocks, roots[0] ?? '') : undefined;
  if (only !== undefined) return `Remove ${only.name}`;
  return roots.length > 1 ? `Remove ${roots.length} blocks` : 'Remove block';
}

/**
 * The history label of an editing event, naming the block where it edits one ('Agent 1 › System
 * Prompt'), read from the graph before the event. Made when the event is folded, never stored in it:
 * labels are for people, so events folded again take the labels of this build.
 */
function actionLabel(event: GraphEvent, before: WorkflowGraph): string {
  const name = 'id' in event ? ownValue(before.blocks, event.id)?.name : undefined;
  switch (event.type) {
    case 'blockAdded':
      return `Add ${event.block.type} block`;
    case 'blockMoved':
      return 'Move block';
    case 'blockResized':
      return 'Resize block';
    case 'blockParentSet':
      return event.parentId === null ? 'Remove parent' : 'Set parent';
    case 'blockRemoved':
      return removedLabel(before, event.blockIds);
    case 'edgeAdded':
      return 'Add connection';
    case 'edgeRemoved':
      return 'Remove connection';
    case 'blockEnabledToggled':
      return `${event.enabled ? 'Enable' : 'Disable'} ${name ?? 'block'}`;
    case 'blockHandlesToggled':
      return 'Toggle handles';
    case 'blockWideSet':
      return 'Toggle wide';
    case 'blockAdvancedModeSet':
      return 'Toggle advanced mode';
    case 'blockDuplicated':
      return 'Duplicate block';
    case 'blockRenamed':
      return name === undefined ? 'Rename block' : `Rename ${name} to ${event.name}`;
    case 'subBlockValueSet':
    case 'subBlockValueSetAndCleared':
      return name === undefined ? 'Update value' : `${name} › ${fieldTitle(event.subBlockId)}`;
    case 'loopUpdated':
      return 'Update loop';
    case 'parallelUpdated':
      return 'Update parallel';
    case 'workflowCleared':
      return 'Clear workflow';
    case 'yamlImported':
      return event.description ?? 'Import YAML';
    case 'stateReplaced':
      return 'Sync workflow';
    default: {
      const unknown: never = event;
      void unknown;
      return 'Unknown edit';
    }
  }
}

export { applyGraphEvent, actionLabel };
