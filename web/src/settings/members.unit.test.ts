import { describe, expect, it } from 'vitest';
import { ApiError, type Member } from '../api';
import { inviteProblem, memberWithEmail } from './members';

const members: Member[] = [
  { userId: 'alice', email: 'alice@example.invalid', name: 'Alice', permission: 'admin' },
  { userId: 'ghost', email: null, name: null, permission: 'read' },
];

const alreadyMember = new ApiError(409, 'alice@example.invalid is already a member of this workspace', { error: 'alice@example.invalid is already a member of this workspace', field: 'email' }, 'Conflict');

describe('Settings › Members invitations', () => {
  it('find a listed member by email, any case and spaces around', () => {
    expect(memberWithEmail(members, ' ALICE@example.invalid ')?.userId).toBe('alice');
    expect(memberWithEmail(members, 'bob@example.invalid')).toBeUndefined();
    expect(memberWithEmail(members, '  ')).toBeUndefined();
  });

  it('show "already a member" below the email field, pointing to the permission control', () => {
    expect(inviteProblem(alreadyMember, members, 'Alice@example.invalid ')).toEqual({
      field: 'email',
      message: 'alice@example.invalid is already a member of this workspace. Change their permission in the list below.',
    });
    // A member the list does not show yet (added meanwhile): the gateway's words alone.
    expect(inviteProblem(alreadyMember, [], 'alice@example.invalid')).toEqual({ field: 'email', message: 'alice@example.invalid is already a member of this workspace' });
  });

  it('leave other failures to a toast', () => {
    expect(inviteProblem(new ApiError(404, 'No account with email bob@example.invalid', { error: 'No account with email bob@example.invalid' }), members, 'bob@example.invalid')).toEqual({
      field: null,
      message: 'No account with email bob@example.invalid',
    });
    expect(inviteProblem(new ApiError(409, 'A workspace needs at least one admin'), members, 'alice@example.invalid')).toEqual({ field: null, message: 'A workspace needs at least one admin' });
    expect(inviteProblem(new Error('Failed to fetch'), members, 'x@example.invalid')).toEqual({ field: null, message: 'Failed to fetch' });
  });
});
