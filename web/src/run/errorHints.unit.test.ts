import { describe, expect, it } from 'vitest';
import { errorHint } from './errorHints';

describe('errorHint', () => {
  it('names the variable to reference for a model call without a key, as the console shows the error', () => {
    expect(errorHint('Agent 1: API key is required for OpenAI')).toBe(
      "Give the block's API Key field your key, or a reference to it: {{OPENAI_API_KEY}} reads the variable of that name from Settings › Environment variables.",
    );
    expect(errorHint('API key is required for Anthropic')).toContain('{{ANTHROPIC_API_KEY}}');
    expect(errorHint('API key is required for Hugging Face')).toContain('{{HUGGINGFACE_API_KEY}}');
  });

  it('takes Azure OpenAI for itself, not for OpenAI', () => {
    expect(errorHint('API key is required for Azure OpenAI when the block sets its own endpoint')).toContain('{{AZURE_OPENAI_API_KEY}}');
  });

  it('has nothing to say about other errors', () => {
    expect(errorHint('Slack answered 200: invalid_auth')).toBeUndefined();
    expect(errorHint('API key is required for Nobody')).toBeUndefined();
  });
});
