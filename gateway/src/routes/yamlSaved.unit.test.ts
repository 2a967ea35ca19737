import { describe, expect, it } from 'vitest';
import { yamlSavedAnswer } from './yamlSaved.js';

const WARNING = 'Left out starter block "Start 2" (again): a workflow can have only one starter block, and "Start" (start) is kept';

describe('the answer to PUT /api/workflows/{id}/yaml', () => {
  it("a chat's save (with its checkpoint) answers the import's warnings, as the plain save does", () => {
    expect(yamlSavedAnswer({ version: 4, blocks: 2, edges: 1, checkpointId: 'cp_yaml_1', warnings: [WARNING] })).toEqual({
      success: true,
      message: 'Workflow saved from YAML: 2 blocks, 1 connections',
      version: 4,
      checkpointId: 'cp_yaml_1',
      warnings: [WARNING],
    });
    expect(yamlSavedAnswer({ version: 4, blocks: 2, edges: 1, warnings: [WARNING] })).toMatchObject({ warnings: [WARNING] });
  });

  it('has no warnings when the import left nothing out (gRPC answers an empty list)', () => {
    expect(yamlSavedAnswer({ version: 2, blocks: 1, edges: 0, checkpointId: 'cp_yaml_2', warnings: [] })).not.toHaveProperty('warnings');
    expect(yamlSavedAnswer({ version: 2, blocks: 1, edges: 0 })).toEqual({ success: true, message: 'Workflow saved from YAML: 1 blocks, 0 connections', version: 2 });
  });
});
