import { describe, expect, it } from 'vitest';
import { RUN_TRIGGERS, triggerLabel } from './triggers';

describe('triggerLabel', () => {
  it('names every trigger the runner records as a person would read it', () => {
    expect(RUN_TRIGGERS.map(triggerLabel)).toEqual(['Manual', 'API', 'Webhook', 'Schedule', 'Chat', 'Workflow']);
  });

  it('shows a trigger it does not know readably instead of dropping it', () => {
    expect(triggerLabel('form_submit')).toBe('Form submit');
    expect(triggerLabel('email-in')).toBe('Email in');
    expect(triggerLabel('')).toBe('Unknown');
  });

  it('does not take names from the object prototype for labels', () => {
    expect(triggerLabel('constructor')).toBe('Constructor');
    expect(triggerLabel('toString')).toBe('ToString');
  });
});
