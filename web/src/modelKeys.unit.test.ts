import { describe, expect, it } from 'vitest';
import { suggestedKeyVariable } from './modelKeys';

describe('suggestedKeyVariable', () => {
  const kept = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'HUGGINGFACE_API_KEY'];

  it("names the variable of the model's provider when the field is empty and the user keeps it", () => {
    expect(suggestedKeyVariable('agent', 'gpt-4o', '', kept)).toBe('OPENAI_API_KEY');
    expect(suggestedKeyVariable('agent', 'claude-3-5-sonnet-latest', undefined, kept)).toBe('ANTHROPIC_API_KEY');
    expect(suggestedKeyVariable('router', ' gpt-4o ', '   ', kept)).toBe('OPENAI_API_KEY');
    // The Hugging Face block's models are its own: the block says which key.
    expect(suggestedKeyVariable('huggingface', 'meta-llama/Llama-3.3-70B-Instruct', null, kept)).toBe('HUGGINGFACE_API_KEY');
  });

  it('names none for a filled field, a variable not kept, a keyless or unknown model, or no model', () => {
    expect(suggestedKeyVariable('agent', 'gpt-4o', 'sk-typed', kept)).toBeUndefined();
    expect(suggestedKeyVariable('agent', 'gpt-4o', '{{MY_KEY}}', kept)).toBeUndefined();
    expect(suggestedKeyVariable('agent', 'gemini-2.5-pro', '', kept)).toBeUndefined();
    // A model no provider claims runs on the local Ollama server, which needs no key.
    expect(suggestedKeyVariable('agent', 'llama3.2', '', [...kept, 'OLLAMA_API_KEY'])).toBeUndefined();
    expect(suggestedKeyVariable('agent', '', '', kept)).toBeUndefined();
    expect(suggestedKeyVariable('agent', undefined, '', kept)).toBeUndefined();
  });
});
