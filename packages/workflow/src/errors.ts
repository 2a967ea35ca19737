/** Why a command was refused; each maps to one gRPC/HTTP status at the edge. */
type WorkflowErrorCode = 'validation' | 'not_found' | 'conflict' | 'forbidden' | 'limit';

/** A refused command; `message` is the user-facing text (the spec's words where the spec has them). */
class WorkflowError extends Error {
  readonly code: WorkflowErrorCode;

  constructor(code: WorkflowErrorCode, message: string) {
    super(message);
    this.name = 'WorkflowError';
    this.code = code;
  }
}

export { WorkflowError };
export type { WorkflowErrorCode };
