import type { ToolState } from './chatStream';

/**
 * What each copilot tool is called while it runs (spec 001 §9 "Streamed tool progress display names").
 * The spec's list has five names; Weft's copilot has no documentation search and no planning tool, so
 * "Searching documentation" and "Designing an approach" name none of its tools. The catalogue and the YAML guide
 * are context; the workflow and its last run are the user's workflow being read.
 */
const DISPLAY_NAMES: ReadonlyMap<string, string> = new Map(Object.entries({
  get_blocks_and_tools: 'Getting context',
  get_blocks_metadata: 'Getting context',
  get_yaml_structure: 'Getting context',
  get_user_workflow: 'Analyzing your workflow',
  get_last_run: 'Analyzing your workflow',
  edit_workflow: 'Building your workflow',
}));

/** The name a tool call is shown with: the spec's display name, else 'Executing {tool}'. */
export function toolDisplayName(tool: string): string {
  return DISPLAY_NAMES.get(tool) ?? `Executing ${tool}`;
}

/** The state beside the name: preparing and running while it goes, then done or failed. */
export const TOOL_STATE_LABEL: Readonly<Record<ToolState, string>> = { detecting: 'preparing', executing: 'running', completed: 'done', error: 'failed' };
