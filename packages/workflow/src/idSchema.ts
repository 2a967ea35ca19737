import { z } from 'zod';
import { RESERVED_ID } from './model/ownKeys.js';

/** Why `__proto__` is refused as an id or a key: 'Invalid command: id: "__proto__" cannot be an id…'. */
const RESERVED_ID_MESSAGE = `"${RESERVED_ID}" cannot be an id: it does not survive as a key of a JSON object`;
/** Any non-empty id, `constructor` and `toString` too; only `__proto__` is refused, by name. */
const id = z
  .string()
  .min(1)
  .refine((value) => value !== RESERVED_ID, RESERVED_ID_MESSAGE);

/**
 * A record keyed by ids (`key` checks the rest). zod drops a `__proto__` key without a word (JSON.parse
 * keeps it as an own key), so it is refused here by name: 'blocks.__proto__: "__proto__" cannot be an id…'.
 */
function idRecord<K extends z.core.$ZodRecordKey, V extends z.ZodType>(key: K, value: V) {
  return z.preprocess((input, ctx) => {
    if (input !== null && typeof input === 'object' && Object.hasOwn(input, RESERVED_ID)) {
      ctx.addIssue({ code: 'custom', input, path: [RESERVED_ID], message: RESERVED_ID_MESSAGE });
    }
    return input;
  }, z.record(key, value));
}

export { id, idRecord };
