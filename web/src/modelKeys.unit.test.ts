import { describe, expect, it } from 'vitest';
import { suggestedKey } from './modelKeys';

describe('suggestedKey', () => {
  const kept = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'HUGGINGFACE_API_KEY'];
  const variable = (...args: Parameters<typeof suggestedKey>) => suggestedKey(...args)?.variable;

  it("names the variable of the model's provider when the field is empty and the user keeps it", () => {
    expect(suggestedKey('agent', 'gpt-4o', '', kept)).toEqual({ variable: 'OPENAI_API_KEY', provider: 'OpenAI' });
    expect(variable('agent', 'claude-3-5-sonnet-latest', undefined, kept)).toBe('ANTHROPIC_API_KEY');
    expect(variable('router', ' gpt-4o ', '   ', kept)).toBe('OPENAI_API_KEY');
    // The Hugging Face block's models are its own: the block says which key.
    expect(variable('huggingface', 'meta-llama/Llama-3.3-70B-Instruct', null, kept)).toBe('HUGGINGFACE_API_KEY');
  });

  it("offers to replace another provider's variable left after the model was switched", () => {
    expect(suggestedKey('agent', 'claude-3-5-sonnet-latest', '{{OPENAI_API_KEY}}', kept)).toEqual({ variable: 'ANTHROPIC_API_KEY', provider: 'Anthropic', replaces: 'OPENAI_API_KEY' });
    expect(suggestedKey('agent', 'claude-3-5-sonnet-latest', ' {{ OPENAI_API_KEY }} ', kept)?.replaces).toBe('OPENAI_API_KEY');
    // Its own variable already named: nothing to say.
    expect(suggestedKey('agent', 'gpt-4o', '{{OPENAI_API_KEY}}', kept)).toBeUndefined();
  });

  it('names none for a typed key or a variable of the user\'s own naming, a variable not kept, a keyless or unknown model, or no model', () => {
    expect(suggestedKey('agent', 'gpt-4o', 'sk-typed', kept)).toBeUndefined();
    expect(suggestedKey('agent', 'gpt-4o', '{{MY_KEY}}', kept)).toBeUndefined();
    expect(suggestedKey('agent', 'gemini-2.5-pro', '', kept)).toBeUndefined();
    expect(suggestedKey('agent', 'gemini-2.5-pro', '{{OPENAI_API_KEY}}', kept)).toBeUndefined();
    // A model no provider claims runs on the local Ollama server, which needs no key.
    expect(suggestedKey('agent', 'llama3.2', '', [...kept, 'OLLAMA_API_KEY'])).toBeUndefined();
    expect(suggestedKey('agent', '', '', kept)).toBeUndefined();
    expect(suggestedKey('agent', undefined, '', kept)).toBeUndefined();
    expect(suggestedKey('agent', 'gpt-4o', 42, kept)).toBeUndefined();
  });
});
