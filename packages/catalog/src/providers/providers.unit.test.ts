import { describe, expect, it } from 'vitest';
import { EMBEDDING_MODEL_PRICES } from './embeddings.js';
import { FALLBACK_PRICING, calculateCost, estimateStreamingCost, getModelPricing } from './cost.js';
import { formatCost } from './formatCost.js';
import {
  getModel,
  getProvider,
  getProviderForModel,
  getTemperatureRange,
  listModelIds,
  listProviders,
  supportsComputerUse,
  supportsToolUsageControl,
} from './registry.js';

describe('provider catalogue', () => {
  it('lists the nine providers', () => {
    expect(listProviders().map((p) => p.id)).toEqual(['openai', 'azure-openai', 'anthropic', 'google', 'deepseek', 'xai', 'cerebras', 'groq', 'ollama']);
  });

  it('uses the §9 catalogue default models', () => {
    const defaults = Object.fromEntries(listProviders().map((p) => [p.id, p.defaultModel]));
    expect(defaults).toMatchObject({
      openai: 'gpt-4o',
      'azure-openai': 'azure/gpt-4o',
      anthropic: 'claude-sonnet-4-0',
      google: 'gemini-2.5-pro',
      deepseek: 'deepseek-chat',
      cerebras: 'cerebras/llama-3.3-70b',
      ollama: '',
    });
    expect(defaults.groq).toMatch(/^groq\/meta-llama\//);
  });

  it('both readings: the xAI default is the catalogue grok-4-latest, not the adapter grok-3-latest', () => {
    expect(getProvider('xai')?.defaultModel).toBe('grok-4-latest');
  });

  it('finds the provider by exact model, then by pattern, else the local Ollama provider', () => {
    expect(getProviderForModel('gpt-4o').id).toBe('openai');
    expect(getProviderForModel('azure/gpt-4o').id).toBe('azure-openai');
    expect(getProviderForModel('claude-3-7-sonnet-latest').id).toBe('anthropic');
    expect(getProviderForModel('gemini-2.5-flash').id).toBe('google');
    expect(getProviderForModel('deepseek-r1').id).toBe('deepseek');
    expect(getProviderForModel('grok-3-fast-latest').id).toBe('xai');
    expect(getProviderForModel('groq/qwen-qwq-32b').id).toBe('groq');
    expect(getProviderForModel('cerebras/llama-3.3-70b').id).toBe('cerebras');
    expect(getProviderForModel('gpt-4.5-preview').id).toBe('openai');
    expect(getProviderForModel('claude-future').id).toBe('anthropic');
    expect(getProviderForModel('llama3.2:latest').id).toBe('ollama');
  });

  it('lists local models after the hosted ones', () => {
    const ids = listModelIds(['llama3.2']);
    expect(ids).toContain('gpt-4o');
    expect(ids.at(-1)).toBe('llama3.2');
  });

  it('knows the capabilities of §9', () => {
    expect(getTemperatureRange('gpt-4o')).toEqual({ min: 0, max: 2 });
    expect(getTemperatureRange('gpt-4.1-mini')).toEqual({ min: 0, max: 2 });
    expect(getTemperatureRange('o3')).toBeUndefined();
    expect(getTemperatureRange('claude-sonnet-4-0')).toEqual({ min: 0, max: 1 });
    expect(getTemperatureRange('grok-4-latest')).toEqual({ min: 0, max: 1 });
    expect(getTemperatureRange('gemini-2.5-pro')).toEqual({ min: 0, max: 2 });
    expect(supportsToolUsageControl('cerebras/llama-3.3-70b')).toBe(false);
    expect(supportsToolUsageControl('groq/qwen-qwq-32b')).toBe(false);
    expect(supportsToolUsageControl('gpt-4o')).toBe(true);
    expect(supportsComputerUse('claude-3-7-sonnet-latest')).toBe(true);
    expect(supportsComputerUse('claude-3-5-sonnet-latest')).toBe(true);
    expect(supportsComputerUse('claude-sonnet-4-0')).toBe(false);
  });
});

describe('§9 pricing table', () => {
  const rows: ReadonlyArray<readonly [string, number, number, number]> = [
    ['gpt-4o', 2.5, 1.25, 10],
    ['o1', 15, 7.5, 60],
    ['o3', 2, 0.5, 8],
    ['o4-mini', 1.1, 0.275, 4.4],
    ['gpt-4.1', 2, 0.5, 8],
    ['gpt-4.1-nano', 0.1, 0.025, 0.4],
    ['gpt-4.1-mini', 0.4, 0.1, 1.6],
    ['azure/gpt-4o', 2.5, 1.25, 10],
    ['azure/o3', 10, 2.5, 40],
    ['azure/o4-mini', 1.1, 0.275, 4.4],
    ['azure/gpt-4.1', 2, 0.5, 8],
    ['azure/model-router', 2, 0.5, 8],
    ['claude-sonnet-4-0', 3, 1.5, 15],
    ['claude-3-7-sonnet-latest', 3, 1.5, 15],
    ['claude-3-5-sonnet-latest', 3, 1.5, 15],
    ['claude-opus-4-0', 15, 7.5, 75],
    ['gemini-2.5-pro', 0.15, 0.075, 0.6],
    ['gemini-2.5-flash', 0.15, 0.075, 0.6],
    ['deepseek-chat', 0.75, 0.4, 1],
    ['deepseek-v3', 0.75, 0.4, 1],
    ['deepseek-r1', 1, 0.5, 1.5],
    ['grok-4-latest', 5, 2.5, 25],
    ['grok-3-latest', 3, 1.5, 15],
    ['grok-3-fast-latest', 5, 2.5, 25],
    ['cerebras/llama-3.3-70b', 0.94, 0.47, 0.94],
    ['groq/meta-llama/llama-4-scout-17b-16e-instruct', 0.4, 0.2, 0.6],
    ['groq/deepseek-r1-distill-llama-70b', 0.75, 0.38, 0.99],
    ['groq/qwen-qwq-32b', 0.29, 0.29, 0.39],
  ];
  it.each(rows)('%s costs %s / %s / %s per million', (id, input, cachedInput, output) => {
    expect(getModel(id)?.pricing).toMatchObject({ input, cachedInput, output });
    expect(getModel(id)?.pricing.updatedAt).toMatch(/^2025-0[3-7]-\d{2}$/);
  });

  it('prices embeddings per million: small 0.02, large 0.13, ada-002 0.1', () => {
    expect(EMBEDDING_MODEL_PRICES).toEqual({ 'text-embedding-3-small': 0.02, 'text-embedding-3-large': 0.13, 'text-embedding-ada-002': 0.1 });
    expect(getModelPricing('text-embedding-3-large')).toMatchObject({ input: 0.13, output: 0 });
  });
});

describe('cost', () => {
  it('prices a call from its token counts', () => {
    expect(calculateCost('gpt-4o', 1_000_000, 1_000_000)).toMatchObject({ input: 2.5, output: 10, total: 12.5 });
    expect(calculateCost('claude-sonnet-4-0', 2000, 500)).toMatchObject({ input: 0.006, output: 0.0075, total: 0.0135 });
  });

  it('prices cached prompts at the cached-input rate', () => {
    expect(calculateCost('gpt-4o', 1_000_000, 0, true)).toMatchObject({ input: 1.25, output: 0, total: 1.25 });
  });

  it('falls back to 1 / 0.5 / 5 per million for unknown models', () => {
    expect(FALLBACK_PRICING).toMatchObject({ input: 1, cachedInput: 0.5, output: 5 });
    expect(calculateCost('my-local-model', 1_000_000, 1_000_000)).toMatchObject({ input: 1, output: 5, total: 6 });
    expect(calculateCost('my-local-model', 1_000_000, 0, true).input).toBe(0.5);
  });

  it('estimates streaming at 0.0001 per token', () => {
    expect(estimateStreamingCost(1000)).toBe(0.1);
    expect(estimateStreamingCost(0)).toBe(0);
  });
});

describe('formatCost', () => {
  it.each([
    [1, '$1.00'],
    [12.5, '$12.50'],
    [0.999, '$0.999'],
    [0.01, '$0.010'],
    [0.0456, '$0.046'],
    [0.00456, '$0.0046'],
    [0.001, '$0.0010'],
    [0.000123, '$0.000123'],
    [0, '$0.00'],
  ])('%s shows as %s', (amount, shown) => {
    expect(formatCost(amount)).toBe(shown);
  });
});
