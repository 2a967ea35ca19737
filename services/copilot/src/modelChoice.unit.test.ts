import { describe, expect, it } from 'vitest';
import { operatorDefaults, resolveModel } from './modelChoice.js';

const operator = { model: 'gpt-4o', provider: 'openai' as const };

describe('the copilot model: request, else workspace, else operator; key from the workspace environment', () => {
  it("takes the request's provider and model, with the workspace's key for that provider", () => {
    expect(resolveModel({ provider: 'ollama', model: 'llama3.2' }, { COPILOT_MODEL: 'claude-sonnet-4-0', OLLAMA_API_KEY: 'local' }, operator)).toEqual({ provider: 'ollama', model: 'llama3.2', apiKey: 'local' });
  });

  it("falls back to the workspace environment's COPILOT_MODEL and COPILOT_PROVIDER", () => {
    expect(resolveModel({}, { COPILOT_MODEL: 'qwen2.5', COPILOT_PROVIDER: 'ollama' }, operator)).toEqual({ provider: 'ollama', model: 'qwen2.5' });
    expect(resolveModel({}, { COPILOT_MODEL: 'claude-sonnet-4-0', ANTHROPIC_API_KEY: 'sk-ant' }, operator)).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-0', apiKey: 'sk-ant' });
  });

  it("then the operator's, leaving the key to the model layer when the workspace has none", () => {
    expect(resolveModel({}, {}, operator)).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(resolveModel({}, { OPENAI_API_KEY: ' sk-ws ' }, operator)).toEqual({ provider: 'openai', model: 'gpt-4o', apiKey: 'sk-ws' });
  });

  it('refuses an unknown provider naming where it came from', () => {
    expect(() => resolveModel({ provider: 'nope', model: 'x' }, {}, operator)).toThrow(/^provider must be one of openai,/);
    expect(() => resolveModel({}, { COPILOT_MODEL: 'x', COPILOT_PROVIDER: 'nope' }, operator)).toThrow(/^COPILOT_PROVIDER must be one of/);
    expect(() => operatorDefaults({ WEFT_COPILOT_PROVIDER: 'nope' })).toThrow(/^WEFT_COPILOT_PROVIDER must be one of/);
    expect(operatorDefaults({})).toEqual({ model: 'gpt-4o' });
    expect(operatorDefaults({ WEFT_COPILOT_MODEL: 'llama3.2', WEFT_COPILOT_PROVIDER: 'ollama' })).toEqual({ model: 'llama3.2', provider: 'ollama' });
  });
});
