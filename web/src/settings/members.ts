import { ApiError, type Member } from '../api';

/** A refused invitation as the Members tab shows it: below the email field when the gateway names it, else as a toast. */
export interface InviteProblem {
  field: 'email' | null;
  message: string;
}

/** The listed member with this email (any case, spaces around ignored), if any. */
export function memberWithEmail(members: readonly Member[], email: string): Member | undefined {
  const wanted = email.trim().toLowerCase();
  return wanted ? members.find((m) => m.email?.toLowerCase() === wanted) : undefined;
}

/**
 * Why an invitation was refused. The gateway's 409 for someone already a member (`field: 'email'`)
 * goes below the email field, with where a member's permission is changed instead (an invitation
 * never changes it); other failures are toasts.
 */
export function inviteProblem(error: unknown, members: readonly Member[], email: string): InviteProblem {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiError) || error.body.field !== 'email') return { field: null, message };
  const listed = error.status === 409 ? memberWithEmail(members, email) : undefined;
  return { field: 'email', message: listed ? `${message}. Change their permission in the list below.` : message };
}
