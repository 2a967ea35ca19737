import { describe, expect, it } from 'vitest';
import { getBlock } from '@weft/catalog';
import type { BlockDefinition } from '../../api';
import { defaultToolParams, toolCardFields } from './toolCard';

const slack = getBlock('slack') as unknown as BlockDefinition;

describe("a tool block's card in the agent's tool picker", () => {
  it("starts at the block form's defaults and shows the fields the block's form shows for its values", () => {
    const params = defaultToolParams(slack);
    expect(params).toMatchObject({ operation: 'send', authMethod: 'oauth' });
    const ids = (values: Record<string, unknown>) => toolCardFields(slack, values).map((f) => f.id);
    expect(ids(params)).toEqual(['operation', 'authMethod', 'credential', 'channel', 'text']);
    expect(ids({ ...params, authMethod: 'bot_token', operation: 'read' })).toEqual(['operation', 'authMethod', 'botToken', 'channel', 'limit', 'oldest']);
  });
});
