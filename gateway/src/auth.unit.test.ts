import { describe, expect, it } from 'vitest';
import type { Request } from 'express';
import { INVALID_API_KEY } from '@weft/contracts';
import { DEPLOYMENT_KEY_NOT_HERE, requireActor, type Authenticator } from './auth.js';

const nobody: Authenticator = { authenticate: () => Promise.resolve(null) };
const withKey = (key?: string) => ({ header: (name: string) => (name.toLowerCase() === 'x-api-key' ? key : undefined) }) as unknown as Request;

describe('requireActor', () => {
  it('tells a caller without an actor why, by the key it sent', async () => {
    await expect(requireActor(nobody, withKey())).rejects.toMatchObject({ code: 'unauthenticated', message: 'Unauthorized' });
    await expect(requireActor(nobody, withKey('weft_revoked'))).rejects.toMatchObject({ message: INVALID_API_KEY });
    // A deployment key on a route that needs a person (listing a workflow's runs) says what the key is for.
    await expect(requireActor(nobody, withKey('wf_abc'))).rejects.toMatchObject({ code: 'unauthenticated', message: DEPLOYMENT_KEY_NOT_HERE });
  });

  it('answers the actor when there is one', async () => {
    const someone: Authenticator = { authenticate: () => Promise.resolve({ userId: 'u1' }) };
    await expect(requireActor(someone, withKey('wf_abc'))).resolves.toEqual({ userId: 'u1' });
  });
});
