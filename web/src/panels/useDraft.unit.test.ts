import { describe, expect, it } from 'vitest';
import { receiveValue, type DraftState } from './useDraft';

const field = (fields: Partial<DraftState>): DraftState => ({ draft: 'old', shown: 'old', focused: false, dirty: false, ...fields });

describe('a field receiving a value from someone else', () => {
  it('shows the new value when the user is not in the field', () => {
    expect(receiveValue(field({}), 'new')).toEqual(field({ draft: 'new', shown: 'new' }));
  });

  it('shows the new value when the user is in the field but has typed nothing', () => {
    expect(receiveValue(field({ focused: true }), 'new')).toEqual(field({ focused: true, draft: 'new', shown: 'new' }));
  });

  it('keeps what the user is typing', () => {
    expect(receiveValue(field({ focused: true, dirty: true, draft: 'mine' }), 'new')).toEqual(field({ focused: true, dirty: true, draft: 'mine', shown: 'new' }));
  });

  it('drops unsent text the user left (refused JSON, say) for the new value', () => {
    expect(receiveValue(field({ dirty: true, draft: '[{' }), 'new')).toEqual(field({ draft: 'new', shown: 'new' }));
  });

  it('changes nothing when the value is the one shown', () => {
    const typing = field({ focused: true, dirty: true, draft: 'mine' });
    expect(receiveValue(typing, 'old')).toBe(typing);
  });
});
