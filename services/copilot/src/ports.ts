/** The other services the copilot's tools reach, as narrow ports (gRPC in production, in-memory in tests). */
export interface EditorPort {
  /** The workflow's current graph and version. */
  getState(workflowId: string): Promise<{ version: number; state: { blocks: Record<string, unknown>; edges: unknown[] } }>;
  exportYaml(workflowId: string): Promise<string>;
  /**
   * Runs editing commands as the actor; validation failures throw an AppError with code `validation`.
   * `warnings`: what a YAML import left out to keep the rules (a second starter), when it did.
   */
  execute(workflowId: string, actorId: string, commands: unknown[], opts?: { expectedVersion?: number; commandId?: string }): Promise<{ version: number; warnings?: string[] }>;
}

export interface RegistryPort {
  /** The user's environment variables (decrypted), where keys and the copilot defaults live. */
  environment(actorId: string): Promise<Record<string, string>>;
}

export interface RunsPort {
  /** The workflow's last run with its block logs, or null when it never ran. */
  lastRun(workflowId: string): Promise<unknown>;
}

export interface Ports {
  editor: EditorPort;
  registry: RegistryPort;
  runs: RunsPort;
}
