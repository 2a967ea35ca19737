/** Embedding models with their price in dollars per million tokens (§9). */
export const EMBEDDING_MODEL_PRICES: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 0.02,
  'text-embedding-3-large': 0.13,
  'text-embedding-ada-002': 0.1,
};

/** Default embedding model and encoding format. */
export const EMBEDDING_DEFAULTS = { model: 'text-embedding-3-small', encodingFormat: 'float' } as const;
