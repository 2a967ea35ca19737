// Preloaded into each worker's workflow context (see SHARED_WORKFLOW_MODULES in ./workflowBundle.ts);
// never imported by ordinary code. Temporal's SDK records, for every promise workflow code creates, a
// stack trace mapped through the bundle's source map (for its `__stack_trace` query): a run of a few
// blocks creates hundreds of promises, and that mapping was a fifth of the workflow thread's CPU.
// Stack traces of errors made in workflow code go with it; messages stay, and they are what a run
// reports. The limit belongs to the workflow context's own `Error`, so the services' stacks are whole.
Error.stackTraceLimit = 0;

export {};
