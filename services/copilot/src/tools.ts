/** A tool the copilot's model may call, with its JSON-schema parameters. */
export interface CopilotToolDefinition {
  name: string;
  description: string;
  parameters: { type: 'object'; properties: Record<string, unknown>; required: string[] };
}

/** The copilot's tools (spec 000 §3, "Copilot tool definitions", plus the current workflow and its last run). */
export const COPILOT_TOOLS: readonly CopilotToolDefinition[] = [
  {
    name: 'get_blocks_and_tools',
    description: 'List every block type with the tools each block can call.',
    parameters: { type: 'object', properties: {}, required: [] },
  },
  {
    name: 'get_blocks_metadata',
    description: 'Get the full metadata (form fields, inputs, outputs, tools) of the given block types.',
    parameters: {
      type: 'object',
      properties: { blockIds: { type: 'array', items: { type: 'string' }, description: 'Block type ids to describe' } },
      required: ['blockIds'],
    },
  },
  {
    name: 'get_yaml_structure',
    description: 'Get the guide to the YAML format that describes a workflow.',
    parameters: { type: 'object', properties: {}, required: [] },
  },
  {
    name: 'edit_workflow',
    description: 'Replace the current workflow with the one described in YAML.',
    parameters: {
      type: 'object',
      properties: {
        yamlContent: { type: 'string', description: 'The whole workflow as YAML' },
        description: { type: 'string', description: 'What the edit does, for the history' },
      },
      required: ['yamlContent'],
    },
  },
  {
    name: 'get_user_workflow',
    description: 'Get the workflow as it is now, as YAML.',
    parameters: { type: 'object', properties: {}, required: [] },
  },
  {
    name: 'get_last_run',
    description: "Get the workflow's last run: its status, error and each block's log, to fix what failed.",
    parameters: { type: 'object', properties: {}, required: [] },
  },
];
