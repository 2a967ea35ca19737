import { describe, expect, it } from 'vitest';
import { listTools } from '@weft/catalog';
import { toolNeedsWrite } from './toolAccess.js';

describe('the access a tool needs through the proxy', () => {
  it('tools that change memories or knowledge need write access, as their own routes do', () => {
    expect(listTools().filter((t) => toolNeedsWrite(t.id)).map((t) => t.id).sort()).toEqual(['knowledge_create_document', 'knowledge_upload_chunk', 'memory_add', 'memory_delete']);
  });

  it('reads, outside services, custom tools and unknown ids need read access', () => {
    for (const id of ['memory_get', 'memory_get_all', 'knowledge_search', 'http_request', 'workflow_executor', 'slack_message', 'custom_weather', 'no_such_tool']) expect(toolNeedsWrite(id), id).toBe(false);
  });
});
