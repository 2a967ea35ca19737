import { describe, expect, it } from 'vitest';
import { TOOL_STATE_LABEL, toolDisplayName } from './toolNames';

describe('the names copilot tool calls are shown with (spec 001 §9)', () => {
  it('names each of the copilot’s tools by what it does for the user', () => {
    expect(toolDisplayName('get_blocks_and_tools')).toBe('Getting context');
    expect(toolDisplayName('get_blocks_metadata')).toBe('Getting context');
    expect(toolDisplayName('get_yaml_structure')).toBe('Getting context');
    expect(toolDisplayName('get_user_workflow')).toBe('Analyzing your workflow');
    expect(toolDisplayName('get_last_run')).toBe('Analyzing your workflow');
    expect(toolDisplayName('edit_workflow')).toBe('Building your workflow');
  });

  it('shows any other tool as Executing {tool}', () => {
    expect(toolDisplayName('search_web')).toBe('Executing search_web');
    expect(toolDisplayName('toString')).toBe('Executing toString');
  });

  it('says whether the call is still going, done or failed', () => {
    expect(TOOL_STATE_LABEL).toEqual({ detecting: 'preparing', executing: 'running', completed: 'done', error: 'failed' });
  });
});
