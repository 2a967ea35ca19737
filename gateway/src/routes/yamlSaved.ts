/** What a YAML save (PUT /api/workflows/{id}/yaml) stored, however it went: straight to the editor or through a chat. */
export interface YamlSaved {
  version: number;
  blocks: number;
  edges: number;
  /** Set when the save is a copilot chat's edit (the state before it is the chat's checkpoint). */
  checkpointId?: string;
  /** What the import left out to keep the rules (a second starter), when it did. */
  warnings?: readonly string[];
}

/** The answer to a YAML save, the same for both ways: the import's `warnings` only when there are any. */
export function yamlSavedAnswer(saved: YamlSaved): Record<string, unknown> {
  return {
    success: true,
    message: `Workflow saved from YAML: ${saved.blocks} blocks, ${saved.edges} connections`,
    version: saved.version,
    ...(saved.checkpointId === undefined ? {} : { checkpointId: saved.checkpointId }),
    ...(saved.warnings === undefined || saved.warnings.length === 0 ? {} : { warnings: [...saved.warnings] }),
  };
}
