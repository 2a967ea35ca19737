import { describe, expect, it } from 'vitest';
import { DRAFT_PAUSE_MS, left, receiveValue, sent, typed, type DraftState } from './useDraft';

const field = (fields: Partial<DraftState>): DraftState => ({ draft: 'old', shown: 'old', focused: false, dirty: false, echo: false, ...fields });

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

describe('a field sending after a pause in typing', () => {
  it('sends what was typed and is then unsent no longer', () => {
    const typing = typed(field({ focused: true }), 'mine');
    expect(typing).toMatchObject({ draft: 'mine', dirty: true });
    expect(sent(typing, 'mine', true)).toMatchObject({ draft: 'mine', dirty: false, echo: true });
  });

  it('stays unsent when the user typed on after the text went', () => {
    const typing = typed(field({ focused: true }), 'mine and more');
    expect(sent(typing, 'mine', true)).toBe(typing);
  });

  it('keeps the text under the caret when its own value comes back written another way', () => {
    const after = sent(typed(field({ focused: true }), '1.50'), '1.50', true);
    expect(receiveValue(after, '1.5')).toMatchObject({ draft: '1.50', shown: '1.5', dirty: false, echo: false });
  });

  it('shows a collaborator’s value that comes after its own came back', () => {
    const after = receiveValue(sent(typed(field({ focused: true }), 'mine'), 'mine', true), 'mine');
    expect(receiveValue(after, 'theirs')).toMatchObject({ draft: 'theirs', shown: 'theirs' });
  });

  it('takes its value back as written once the user leaves the field', () => {
    const after = receiveValue(sent(typed(field({ focused: true }), '1.50'), '1.50', true), '1.5');
    expect(left(after)).toMatchObject({ draft: '1.5', focused: false, echo: false });
  });

  it('keeps unsent text (refused) when the user leaves', () => {
    expect(left(typed(field({ focused: true }), '[{'))).toMatchObject({ draft: '[{', dirty: true, focused: false });
  });

  it('waits a pause long enough to be one edit per pause, short enough not to lose much', () => {
    expect(DRAFT_PAUSE_MS).toBeGreaterThanOrEqual(500);
    expect(DRAFT_PAUSE_MS).toBeLessThanOrEqual(1500);
  });
});
