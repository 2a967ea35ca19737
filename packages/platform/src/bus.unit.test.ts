import { describe, expect, it } from 'vitest';
import { createEnvelope, streamName } from './bus.js';
import { withRequestContext } from './context.js';

describe('bus envelopes', () => {
  it('stamps the current request id and a unique event id', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const a = withRequestContext({ requestId: 'r-1' }, () => createEnvelope('weft.registry.workflow.w1', 'workflowCreated', { id: 'w1' }, at));
    const b = createEnvelope('weft.registry.workflow.w1', 'workflowCreated', { id: 'w1' }, at);
    expect(a).toMatchObject({ type: 'workflowCreated', subject: 'weft.registry.workflow.w1', occurredAt: '2026-01-02T03:04:05.000Z', requestId: 'r-1', data: { id: 'w1' } });
    expect(b.requestId).toBeUndefined();
    expect(a.id).not.toBe(b.id);
  });

  it('names one stream per source and instance', () => {
    expect(streamName('weft', 'editor')).toBe('WEFT_EDITOR');
    expect(streamName('t1a2b', 'runner')).toBe('T1A2B_RUNNER');
  });
});
