import { describe, expect, it } from 'vitest';
import { AppError } from '@weft/platform';
import { scheduleRef } from './schedules.js';

describe('schedule ids of /api/schedules/{id}/pause and /resume', () => {
  it('a workflow id names all of its schedules, <workflowId>:<blockId> one', () => {
    expect(scheduleRef('wf')).toEqual({ workflowId: 'wf' });
    expect(scheduleRef('wf:nightly')).toEqual({ workflowId: 'wf', blockId: 'nightly' });
  });

  it('an empty block or workflow id is a validation error naming the id (not every schedule of the workflow)', () => {
    for (const id of ['wf:', ':b', ':', '']) {
      let caught: unknown;
      try {
        scheduleRef(id);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect(caught).toMatchObject({ code: 'validation', message: expect.stringContaining(`${JSON.stringify(id)} is not a schedule id`) as unknown });
    }
  });
});
