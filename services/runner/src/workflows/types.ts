/** The part of a workflow state a run needs (structurally compatible with @weft/workflow's state). */
export interface RunnableBlock {
  id: string;
  type: string;
  name: string;
  enabled: boolean;
  subBlocks: Record<string, { id: string; type: string; value: unknown }>;
}

export interface RunnableState {
  blocks: Record<string, RunnableBlock>;
  edges: Array<{ id: string; source: string; target: string; sourceHandle?: string | null; targetHandle?: string | null }>;
}

export interface RunInput {
  executionId: string;
  workflowId: string;
  state: RunnableState;
  input: unknown;
  requestId: string;
}

/** One block's entry in the run log. */
export interface BlockLog {
  blockId: string;
  blockName: string;
  blockType: string;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  success: boolean;
  output?: unknown;
  error?: string;
}

export interface RunResult {
  success: boolean;
  output: unknown;
  logs: BlockLog[];
  error?: string;
}
