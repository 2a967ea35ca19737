import { describe, expect, it } from 'vitest';
import { loadConfig, serviceAddress } from './config.js';

describe('config', () => {
  it('has defaults that work on a developer machine', () => {
    const c = loadConfig({});
    expect(c.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/weft');
    expect(c.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(c.TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
    expect(c.PORT).toBe(3000);
    expect(c.WEFT_INSTANCE).toBe('weft');
    expect(serviceAddress(c, 'editor')).toBe('127.0.0.1:50052');
  });

  it('reads and coerces the environment', () => {
    const c = loadConfig({ PORT: '8080', EDITOR_ADDR: '10.0.0.1:9000', GRPC_DEADLINE_MS: '250' });
    expect(c.PORT).toBe(8080);
    expect(c.GRPC_DEADLINE_MS).toBe(250);
    expect(serviceAddress(c, 'editor')).toBe('10.0.0.1:9000');
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT: /);
    expect(() => loadConfig({ DATABASE_URL: 'nope' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ WEFT_INSTANCE: 'Has.Dots' })).toThrow(/WEFT_INSTANCE: lowercase letters, digits and _/);
  });
});
