/**
 * The block types whose model tokens a streamed run sends as `stream:chunk` while the model writes
 * them (their `content` output). The runner streams only these; the deploy panel offers them for
 * `selectedOutputs`.
 */
export const STREAMING_BLOCK_TYPES: ReadonlySet<string> = new Set(['agent', 'translate', 'vision']);
