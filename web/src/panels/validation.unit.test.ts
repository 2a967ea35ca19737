import { describe, expect, it } from 'vitest';
import { getBlock, validateBlockParams, type SubBlockConfig } from '@weft/catalog';
import { messagesByField, validationMessages } from './validation';

/** The server's check as `POST /api/blocks/validate` answers it, counting the calls. */
function server(blockType: string) {
  const asked: Array<Record<string, unknown>> = [];
  const validate = (params: Record<string, unknown>) => {
    asked.push(params);
    return Promise.resolve(validateBlockParams(blockType, params));
  };
  return { asked, validate };
}

describe('validationMessages', () => {
  it("collects every message about an agent's values, not only the first the server names", async () => {
    const { asked, validate } = server('agent');
    const values = { model: 'gpt-4o', maxTokens: 'lots', retries: '9' };
    expect(await validationMessages('agent', values, validate)).toEqual(['Max Tokens must be a positive whole number (got lots)', 'Retries must be a whole number between 0 and 5']);
    // Asked again without the field named each time, until the values pass.
    expect(asked).toEqual([values, { model: 'gpt-4o', retries: '9' }, { model: 'gpt-4o' }]);
  });

  it('asks once when the values pass', async () => {
    const { asked, validate } = server('agent');
    expect(await validationMessages('agent', { model: 'gpt-4o', maxTokens: '100' }, validate)).toEqual([]);
    expect(asked).toHaveLength(1);
  });

  it('leaves out a message about a field holding a reference and still finds the next one', async () => {
    const { validate } = server('agent');
    expect(await validationMessages('agent', { maxTokens: '<start.input>', retries: '9' }, validate)).toEqual(['Retries must be a whole number between 0 and 5']);
  });

  it('does not report a field as required because it was set aside to look further', async () => {
    const validate = (params: Record<string, unknown>) => Promise.resolve(params.maxTokens === undefined ? { success: false as const, error: 'Max Tokens is required' } : { success: false as const, error: 'Max Tokens must be a positive whole number (got 0)' });
    expect(await validationMessages('agent', { maxTokens: '0' }, validate)).toEqual(['Max Tokens must be a positive whole number (got 0)']);
  });

  it('stops at a message naming no field of the values (an unknown block type)', async () => {
    const { asked, validate } = server('no_such_block');
    expect(await validationMessages('no_such_block', { a: 1 }, validate)).toEqual(['Unknown block type: no_such_block']);
    expect(asked).toHaveLength(1);
  });
});

describe('messagesByField', () => {
  const fields: readonly SubBlockConfig[] = getBlock('agent')?.subBlocks ?? [];

  it('puts every message on the field it names, several on one field together, the rest at the head of the form', () => {
    const { byField, unplaced } = messagesByField(fields, ['Max Tokens must be a positive whole number (got lots)', 'Max Tokens must be at most 100000', 'Something about the block']);
    expect(byField.get('maxTokens')).toEqual(['Max Tokens must be a positive whole number (got lots)', 'Max Tokens must be at most 100000']);
    expect(unplaced).toEqual(['Something about the block']);
  });
});
