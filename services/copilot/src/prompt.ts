import { getBlocksAndTools, listBlocks } from '@weft/catalog';
import { yamlStructureGuide } from '@weft/workflow';

/**
 * The copilot's system prompt, built from the block catalogue and the YAML guide the editor reads, so it
 * never drifts from what the editor accepts.
 */
export function buildSystemPrompt(): string {
  const guide = yamlStructureGuide();
  const tools = getBlocksAndTools();
  const blocks = listBlocks()
    .map((b) => `- ${b.type} (${b.name}, ${b.category}): ${b.description}${tools[b.type]?.length ? ` Tools: ${tools[b.type]?.join(', ')}.` : ''}`)
    .join('\n');
  return [
    'You are the Weft copilot. You help the user build and change the workflow open beside you.',
    'Read the workflow with get_user_workflow before changing it, and the last run with get_last_run when the user asks to fix what failed.',
    'Ask get_blocks_metadata for the fields of the blocks you use. Change the workflow only with edit_workflow, giving the WHOLE workflow as YAML.',
    'When edit_workflow answers an error, read the line and message, correct the YAML and call it again.',
    '',
    `Workflow YAML (version ${guide.version}) rules:`,
    ...guide.rules.map((r) => `- ${r}`),
    '',
    'Example:',
    guide.example,
    '',
    'Block types:',
    blocks,
  ].join('\n');
}
