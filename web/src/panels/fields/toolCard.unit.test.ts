import { describe, expect, it } from 'vitest';
import { getBlock } from '@weft/catalog';
import type { BlockDefinition } from '../../api';
import { defaultToolParams, searchRank, toolCardFields, toolChoices } from './toolCard';

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

describe("the agent's tool picker search", () => {
  const all = [getBlock('api'), getBlock('slack'), getBlock('function'), getBlock('condition'), getBlock('exa'), getBlock('google_search')] as unknown as BlockDefinition[];
  const names = (query: string) => toolChoices(all, query).map((d) => d.type);

  it('offers the API block (the runner takes it as an agent tool) beside the tool blocks, and no other control block', () => {
    expect(names('')).toEqual(['api', 'slack', 'exa', 'google_search']);
  });

  it('finds a block by name, type, tool id or description, names first', () => {
    expect(names('API')[0]).toBe('api');
    expect(names('http')).toEqual(['api']);
    expect(names('http_request')).toEqual(['api']);
    expect(names('slack')).toEqual(['slack']);
    expect(names('search')[0]).toBe('google_search');
    expect(names('no such tool')).toEqual([]);
  });

  it('matches every word of the query, in any order, across the fields', () => {
    expect(searchRank('request http', ['API', 'api http_request'])).toBe(1);
    expect(searchRank('api http', ['API', 'api http_request'])).toBe(1);
    expect(searchRank('api mail', ['API', 'api http_request'])).toBeUndefined();
    expect(searchRank('  ', ['anything'])).toBe(0);
  });
});
