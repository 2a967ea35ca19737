import { describe, expect, it } from 'vitest';
import { stackAddresses } from '../infra/scripts/lib/stack.mjs';

const defaults = {
  REGISTRY_ADDR: '127.0.0.1:50051',
  EDITOR_ADDR: '127.0.0.1:50052',
  RUNNER_ADDR: '127.0.0.1:50053',
  INTEGRATIONS_ADDR: '127.0.0.1:50054',
  COPILOT_ADDR: '127.0.0.1:50055',
};

describe('where the stack listens (npm start honours the README’s variables)', () => {
  it('defaults to 127.0.0.1:50051 … 50055 and port 3000', async () => {
    expect(await stackAddresses({ env: {} })).toEqual({ addresses: defaults, port: 3000 });
    expect(await stackAddresses({ env: { PORT: '', REGISTRY_ADDR: ' ' } })).toEqual({ addresses: defaults, port: 3000 });
  });

  it('uses each *_ADDR and PORT that is set, so a second stack runs beside the first', async () => {
    expect(await stackAddresses({ env: { REGISTRY_ADDR: '127.0.0.1:6101', COPILOT_ADDR: '[::1]:6105', PORT: '4000' } })).toEqual({
      addresses: { ...defaults, REGISTRY_ADDR: '127.0.0.1:6101', COPILOT_ADDR: '[::1]:6105' },
      port: 4000,
    });
  });

  it('with random ports (tests, benches) ignores them: free ports on 127.0.0.1, each its own', async () => {
    const { addresses, port } = await stackAddresses({ env: { REGISTRY_ADDR: '127.0.0.1:6101', PORT: '4000' }, randomPorts: true });
    const ports = Object.values(addresses).map((a) => Number(/^127\.0\.0\.1:(\d+)$/.exec(a)?.[1]));
    expect(ports.every((p) => p > 0)).toBe(true);
    expect(new Set([...ports, port]).size).toBe(6);
    expect(ports).not.toContain(6101);
  });

  it('refuses a value that is no host:port, or a port two processes would share, naming the variables', async () => {
    await expect(stackAddresses({ env: { RUNNER_ADDR: 'localhost' } })).rejects.toThrow('RUNNER_ADDR must be host:port with a port from 1 to 65535 (got "localhost")');
    await expect(stackAddresses({ env: { RUNNER_ADDR: '127.0.0.1:70000' } })).rejects.toThrow('RUNNER_ADDR must be host:port');
    await expect(stackAddresses({ env: { PORT: 'abc' } })).rejects.toThrow('PORT must be a port number from 1 to 65535 (got "abc")');
    await expect(stackAddresses({ env: { EDITOR_ADDR: '127.0.0.1:50051' } })).rejects.toThrow('REGISTRY_ADDR and EDITOR_ADDR both use port 50051; give each process its own port');
    await expect(stackAddresses({ env: { PORT: '50055' } })).rejects.toThrow('COPILOT_ADDR and PORT both use port 50055');
  });
});
