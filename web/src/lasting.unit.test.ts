import { describe, expect, it } from 'vitest';
import { lasting } from './api';

describe('a request that outlives its page', () => {
  it('is sent with keepalive when its body fits what the browser allows', () => {
    expect(lasting({ method: 'POST', body: JSON.stringify({ code: 'x'.repeat(1000) }) })).toMatchObject({ method: 'POST', keepalive: true });
  });

  it('is sent plainly when its body is too big for keepalive (the browser would refuse the request)', () => {
    expect(lasting({ method: 'POST', body: 'é'.repeat(40_000) }).keepalive).toBeUndefined();
  });
});
