import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { customToolProblem, customToolsLoadMessage, customToolsSyncMessage, NEW_TOOL_SCHEMA, newToolDraft, readCustomTools, TOOL_CODE_PLACEHOLDER, toolFromDraft } from './customTools';

describe('custom tool editor checks', () => {
  it('accept a complete tool', () => {
    expect(customToolProblem('Weather', NEW_TOOL_SCHEMA, 'return input;')).toBeNull();
  });
  it('refuse with the spec’s messages', () => {
    expect(customToolProblem('Weather', '[]', 'x')).toBe('Invalid schema format');
    expect(customToolProblem('Weather', '{"function": {"name": "a", "parameters": {"type": "array"}}}', 'x')).toBe('Invalid schema format');
    expect(customToolProblem('Weather', NEW_TOOL_SCHEMA, '  ')).toBe('No code provided for tool execution');
    expect(customToolProblem('', NEW_TOOL_SCHEMA, 'x')).toBe('Enter a title');
    expect(customToolProblem('W', '{', 'x')).toMatch(/^Schema is not valid JSON/);
  });
  it('skip invalid tools on load and refuse answers that are not lists', () => {
    expect(readCustomTools([{ id: 'a', title: 'A', schema: {} }, { id: 1 }, { id: 'b', title: 'B', schema: null }])).toEqual([{ id: 'a', title: 'A', schema: {}, code: '' }]);
    expect(() => readCustomTools({})).toThrow('Invalid response format');
  });
  it('tell a failed load in spec 000 §8’s words', () => {
    expect(customToolsLoadMessage(new ApiError(500, 'the registry is down', {}, 'Internal Server Error'))).toBe('Failed to load custom tools: Internal Server Error');
    expect(customToolsLoadMessage(new TypeError('Failed to fetch'))).toBe('Failed to load custom tools: Failed to fetch');
    let notAList: unknown;
    try {
      readCustomTools({ tools: [] });
    } catch (e) {
      notAList = e;
    }
    expect(customToolsLoadMessage(notAList)).toBe('Invalid response format');
  });
  it('make the tool to save from the editor’s draft: a new one with a custom_ id, an edited one keeping its id', () => {
    const made = toolFromDraft({ ...newToolDraft(), title: '  Weather ', code: 'return input;' }, 36 ** 3);
    expect(made).toEqual({ tool: { id: 'custom_1000', title: 'Weather', schema: JSON.parse(NEW_TOOL_SCHEMA) as unknown, code: 'return input;' } });
    expect(toolFromDraft({ id: 'custom_old', title: 'W', schema: NEW_TOOL_SCHEMA, code: 'x' })).toMatchObject({ tool: { id: 'custom_old' } });
    expect(toolFromDraft(newToolDraft())).toEqual({ problem: 'Enter a title' });
  });
  it('tell a failed save in spec 000 §8’s words', () => {
    expect(customToolsSyncMessage(new ApiError(400, 'Tool title is required', {}, 'Bad Request'))).toBe('Failed to sync custom tools: Bad Request. Tool title is required');
    expect(customToolsSyncMessage(new TypeError('Failed to fetch'))).toBe('Failed to sync custom tools: Error. Failed to fetch');
  });
});

describe('the tool code box of a new tool', () => {
  it('hints with a comment, not with text that reads as code already there', () => {
    expect(TOOL_CODE_PLACEHOLDER.startsWith('//')).toBe(true);
    expect(TOOL_CODE_PLACEHOLDER).not.toContain('\n');
  });

  it('is empty, and saving it so still names the missing code', () => {
    expect(newToolDraft().code).toBe('');
    expect(toolFromDraft({ ...newToolDraft(), title: 'Echo' })).toEqual({ problem: 'No code provided for tool execution' });
  });
});
