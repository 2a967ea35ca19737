import { describe, expect, it } from 'vitest';
import { trimToasts } from './toast';

describe('trimToasts', () => {
  it('keeps the newest five, dropping the oldest first', () => {
    const toasts = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id }));
    expect(trimToasts(toasts).map((t) => t.id)).toEqual([3, 4, 5, 6, 7]);
  });

  it('never drops a sticky toast, however many come after it', () => {
    const toasts: { id: number; sticky?: boolean }[] = [{ id: 1, sticky: true }, ...[2, 3, 4, 5, 6, 7].map((id) => ({ id }))];
    expect(trimToasts(toasts).map((t) => t.id)).toEqual([1, 4, 5, 6, 7]);
  });

  it('keeps sticky toasts even when they alone are more than five', () => {
    const toasts: { id: number; sticky?: boolean }[] = [1, 2, 3, 4, 5, 6].map((id) => ({ id, sticky: true }));
    expect(trimToasts([...toasts, { id: 7 }]).map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
